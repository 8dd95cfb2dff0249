import { constant, defineApp } from 'ninefold';

const OPEN_STAGES = ['lead', 'qualified', 'proposal'];

/**
 * A small CRM: salespeople work their deals through the pipeline, managers watch all of it.
 * Written against the spec format only: Ninefold has no code for it.
 */
export default defineApp({
  name: 'crm',

  purpose: {
    title: 'CRM',
    summary: 'Salespeople track companies, their contacts and the deals in the pipeline, from the first lead to won or lost.',
    audience: ['Salespeople who own and work their deals', 'Sales managers who watch the whole pipeline', 'Administrators who run the CRM'],
    // Every amount is in euros: pages write them "€38,533.32", CSV and the API "38533.32".
    currency: 'EUR',
  },

  screens: {
    navigation: ['deal', 'company', 'contact'],
    lists: {
      deal: {
        columns: ['title', 'state', 'company', 'value', 'closeDate', 'owner', 'updatedAt'],
        sort: '-updatedAt',
        filters: ['state', 'owner', 'company'],
        // The pipeline as salespeople work it: a column per stage, its deals' value added up underneath.
        board: 'state',
      },
      company: { columns: ['name', 'industry', 'size', 'website', 'openPipeline'], sort: 'name', filters: ['industry', 'size'] },
      contact: { columns: ['name', 'company', 'jobTitle', 'email', 'phone'], sort: 'name', filters: ['company'] },
      note: { columns: ['deal', 'body', 'createdAt'], sort: '-createdAt' },
    },
    details: {
      company: {
        related: {
          contact: { label: 'Contacts', columns: ['name', 'jobTitle', 'email', 'phone'], sort: 'name' },
          deal: { label: 'Deals', columns: ['title', 'state', 'value', 'owner', 'closeDate'], sort: '-updatedAt' },
        },
      },
      contact: { related: { deal: { label: 'Deals', columns: ['title', 'state', 'value', 'owner'] } } },
      // What happened on a deal, oldest first: calls, meetings, what the customer said.
      deal: { related: { note: { label: 'Notes', thread: true } } },
    },
    home: {
      title: 'Pipeline',
      widgets: [
        { kind: 'counts', entity: 'deal', by: 'state', sum: 'value', title: 'Pipeline value by stage' },
        { kind: 'counts', entity: 'deal', by: 'state', title: 'Deals by stage' },
        {
          kind: 'list',
          entity: 'deal',
          title: 'Deals needing my action',
          where: {
            all: [
              { field: 'owner', op: 'eq', value: { actor: true } },
              { field: 'state', op: 'in', value: OPEN_STAGES },
            ],
          },
          sort: 'closeDate',
          columns: ['title', 'state', 'value', 'closeDate'],
          limit: 10,
        },
        {
          kind: 'chart',
          entity: 'deal',
          title: 'Deals created and won per day',
          days: 30,
          series: [
            { field: 'createdAt', label: 'Created' },
            { field: 'wonAt', label: 'Won' },
          ],
        },
      ],
    },
    routes: {
      myDeals: {
        path: '/my-deals',
        title: 'My deals',
        description: 'The deals I own that are still open, those closing first at the top.',
        roles: ['sales', 'manager'],
        navigation: true,
        show: {
          list: 'deal',
          where: {
            all: [
              { field: 'owner', op: 'eq', value: { actor: true } },
              { field: 'state', op: 'in', value: OPEN_STAGES },
            ],
          },
          sort: 'closeDate',
          columns: ['title', 'state', 'company', 'value', 'closeDate'],
        },
      },
    },
    labels: { 'deal.new': 'New deal' },
  },

  entities: {
    company: {
      label: 'Company',
      plural: 'companies',
      pluralLabel: 'Companies',
      description: 'An organisation we sell to.',
      titleField: 'name',
      fields: {
        name: { type: 'text', required: true, unique: true, minLength: 2, maxLength: 120, searchable: true },
        website: { type: 'url' },
        industry: {
          type: 'enum',
          values: ['software', 'retail', 'manufacturing', 'healthcare', 'finance', 'education', 'other'],
          labels: {
            software: 'Software',
            retail: 'Retail',
            manufacturing: 'Manufacturing',
            healthcare: 'Healthcare',
            finance: 'Finance',
            education: 'Education',
            other: 'Other',
          },
          default: 'other',
          required: true,
        },
        size: {
          type: 'enum',
          label: 'Employees',
          values: ['small', 'medium', 'large', 'enterprise'],
          labels: { small: '1–10', medium: '11–200', large: '201–1,000', enterprise: 'More than 1,000' },
        },
        // What is still to win here: kept by the engine from the company's deals, whoever owns them.
        openPipeline: {
          type: 'money',
          label: 'Open pipeline',
          precision: 12,
          derived: { sum: 'deal.value', where: { field: 'state', op: 'notIn', value: ['won', 'lost'] } },
        },
      },
      // Demo data: names that read as companies of any industry (the industry is picked apart).
      samples: {
        name: [
          'Northwind Traders',
          'Alder & Finch',
          'Brightwater Group',
          'Kestrel Partners',
          'Meridian Works',
          'Bluestone & Co',
          'Oakridge Holdings',
          'Larkspur Group',
          'Crestline Ltd',
          'Harbourview Partners',
          'Ironbridge Ltd',
          'Silverline Systems',
          'Westgate & Sons',
          'Redwood Collective',
          'Summit Ridge Group',
          'Copperfield Ltd',
          'Fernhill & Co',
          'Granite Bay Partners',
          'Lakeside Supplies',
          'Evergreen Services',
        ],
      },
    },
    contact: {
      label: 'Contact',
      description: 'A person at a company.',
      titleField: 'name',
      fields: {
        name: { type: 'text', required: true, minLength: 2, maxLength: 120, searchable: true },
        company: { type: 'reference', to: 'company', required: true },
        jobTitle: { type: 'text', label: 'Job title', maxLength: 120 },
        email: { type: 'email', unique: true, searchable: true },
        phone: { type: 'text', maxLength: 40 },
      },
      samples: {
        jobTitle: [
          'Head of Operations',
          'Procurement Manager',
          'IT Director',
          'Chief Financial Officer',
          'Office Manager',
          'Sales Director',
          'Head of Customer Support',
          'Project Manager',
          'Finance Controller',
          'Managing Director',
          'Purchasing Lead',
          'HR Manager',
        ],
      },
    },
    deal: {
      label: 'Deal',
      description: 'A sale we hope to make, from first lead to won or lost.',
      titleField: 'title',
      fields: {
        title: { type: 'text', required: true, minLength: 3, maxLength: 160, searchable: true },
        company: { type: 'reference', to: 'company', required: true },
        // Someone at the deal's own company: pickers offer only them, and a write naming another is refused.
        contact: { type: 'reference', to: 'contact', onDelete: 'setNull', within: 'company', help: 'Who we talk to at the company.' },
        owner: { type: 'user', required: true, default: 'actor', help: 'The salesperson who works the deal.' },
        value: { type: 'money', precision: 12, min: 0 },
        discount: {
          type: 'integer',
          label: 'Discount (%)',
          min: 0,
          max: constant('maxDiscountPercent'),
          default: 0,
          messages: { too_big: 'A discount above the maximum needs a new price list, not a bigger discount.' },
        },
        closeDate: {
          type: 'date',
          label: 'Expected close',
          after: { daysAgo: 1 },
          rangeMessage: 'The expected close date cannot be in the past.',
        },
        wonAt: { type: 'datetime', label: 'Won', readOnly: true },
      },
      // Demo data: what is being sold (the company has its own column).
      samples: {
        title: [
          'Annual licence renewal',
          'Pilot for the support team',
          'Upgrade to the premium plan',
          'Onboarding for 40 new seats',
          'Roll-out to a second site',
          'Three-year framework agreement',
          'Training package for managers',
          'Data migration project',
          'Reporting add-on',
          'Expansion to the Berlin office',
          'Support contract renewal',
          'Hardware refresh',
          'Integration with their ERP',
          'Consulting days for Q3',
          'Enterprise plan for the whole group',
          'Extra storage and backups',
        ],
      },
    },
    note: {
      label: 'Note',
      description: 'What happened on a deal: a call, a meeting, what the customer said.',
      titleField: 'body',
      fields: {
        deal: { type: 'reference', to: 'deal', required: true, onDelete: 'cascade' },
        body: { type: 'markdown', required: true, maxLength: 5000, searchable: true },
      },
      // Demo data: notes as a salesperson writes them after a call or a meeting.
      samples: {
        body: [
          'Call with their head of operations. Budget is approved for this quarter; they want a quote by Friday.',
          'Demo for the whole team went well.\n\n- liked the reporting\n- asked about single sign-on\n- next step: a trial for two weeks',
          'They are comparing us with two other vendors. Price matters more than features here.',
          'Legal review of the contract is in progress. Expect comments on the liability clause.',
          'Met at the trade fair in March. Introduced by an existing customer.',
          'Decision expected after their board meeting on the 14th. Follow up the week after.',
          'Sent the updated quote with a **10% discount** for a three-year term.',
          'Asked for a reference customer in the same industry; offered two names.',
          'The project is on hold until next year: their budget was cut.',
          'Agreed on the terms by phone. Waiting for the signed order form.',
          'Technical call with their IT team:\n\n1. data export from the old system\n2. single sign-on with their directory\n3. a test account for each department',
          'They chose a cheaper competitor. Keep in touch for the renewal in a year.',
        ],
      },
    },
  },

  workflows: {
    deal: {
      finalError: 'DEAL_CLOSED',
      states: {
        lead: { label: 'Lead', initial: true, description: 'Someone may be interested.' },
        qualified: { label: 'Qualified', description: 'They have the need, the budget and the say.' },
        proposal: { label: 'Proposal', description: 'An offer with a price is on their desk.' },
        won: { label: 'Won', final: true },
        lost: { label: 'Lost', final: true },
      },
      transitions: {
        qualify: { label: 'Qualify', from: 'lead', to: 'qualified', allow: [{ owner: 'owner' }, 'manager'] },
        propose: {
          label: 'Send proposal',
          from: 'qualified',
          to: 'proposal',
          allow: [{ owner: 'owner' }, 'manager'],
          guard: { field: 'value', op: 'gt', value: 0 },
          guardError: 'DEAL_NEEDS_VALUE',
        },
        win: {
          label: 'Mark won',
          from: 'proposal',
          to: 'won',
          allow: [{ owner: 'owner' }, 'manager'],
          effects: [{ set: 'wonAt', to: 'now' }],
        },
        lose: {
          label: 'Mark lost',
          from: ['lead', 'qualified', 'proposal'],
          to: 'lost',
          allow: [{ owner: 'owner' }, 'manager'],
          comment: 'required',
        },
      },
    },
  },

  roles: {
    admin: { label: 'Administrator', description: 'Runs the CRM: users, companies, everything.' },
    manager: { label: 'Sales manager', description: 'Sees the whole pipeline and may step in on any deal.' },
    sales: { label: 'Salesperson', description: 'Owns and works their deals.' },
  },

  // Deny by default: whatever is not granted here is refused, through every door.
  permissions: {
    company: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      manager: { list: true, read: true, create: true, update: true, delete: true },
      // The open pipeline adds up every salesperson's deals, and sales see only their own.
      sales: { list: true, read: true, create: true, update: true, hiddenFields: ['openPipeline'] },
    },
    contact: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      manager: { list: true, read: true, create: true, update: true, delete: true },
      sales: { list: true, read: true, create: true, update: true },
    },
    deal: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      manager: { list: true, read: true, create: true, update: true, delete: true },
      sales: {
        list: { own: 'owner' },
        read: { own: 'owner' },
        create: { own: 'owner' },
        update: { own: 'owner' },
        // A deal changes hands through a manager.
        readOnlyFields: ['owner'],
      },
    },
    note: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      manager: { list: true, read: true, create: true, update: true, delete: true },
      sales: { list: { via: 'deal' }, read: { via: 'deal' }, create: { via: 'deal' } },
    },
  },

  notifications: {
    dealStale: {
      label: 'A deal of yours has gone quiet',
      entity: 'deal',
      // Counted from the last change: any update starts the wait again (and a new reminder).
      on: { after: 'updatedAt', days: constant('staleDealDays') },
      when: { field: 'state', op: 'in', value: OPEN_STAGES },
      to: ['owner'],
      title: '"{title}" has gone quiet',
      text: 'No update since {updatedAt}; expected to close {closeDate}.',
    },
  },

  errors: {
    DEAL_CLOSED: {
      status: 409,
      title: 'Deal closed',
      message: 'This deal is won or lost and can no longer be changed.',
    },
    DEAL_NEEDS_VALUE: {
      status: 409,
      title: 'Deal value missing',
      message: 'A deal needs a value before a proposal is sent.',
    },
  },

  constants: {
    maxDiscountPercent: { value: 20, unit: '%', description: 'The largest discount a deal may give off the price list.' },
    staleDealDays: { value: 14, unit: 'days', description: 'How long an open deal may go without an update before its owner is told.' },
  },
});
