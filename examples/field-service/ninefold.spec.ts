import { constant, defineApp } from 'ninefold';

const OPEN_ORDERS = ['open', 'scheduled', 'overdue', 'inProgress'];

/**
 * Field service: customers' sites and the equipment on them, work orders to repair it, the
 * technicians' visits and the parts they use. Written against the spec format only: Ninefold has
 * no code for it. Times that matter (visits, response times) are the engine's to keep: a visit's
 * end is derived from its start and duration, a technician's visits never overlap, work orders
 * not started within the promised hours go overdue by themselves, a visit's report is due two
 * working days after it starts (weekends and public holidays skipped), and completing a visit
 * puts its equipment back in service.
 */
export default defineApp({
  name: 'field-service',

  purpose: {
    title: 'Field Service',
    timeZone: 'Europe/Berlin',
    summary:
      'Dispatchers plan visits to customers’ sites, technicians repair the equipment and log the parts, customers follow their orders.',
    audience: [
      'Dispatchers who take work orders and plan visits',
      'Technicians who visit sites',
      'Customers who follow the orders for their sites',
    ],
  },

  screens: {
    navigation: ['workOrder', 'visit', 'site', 'equipment', 'customer'],
    lists: {
      workOrder: {
        columns: ['title', 'state', 'site', 'equipment', 'priority', 'partsTotal', 'createdAt'],
        sort: '-createdAt',
        filters: ['state', 'priority', 'site'],
      },
      visit: { columns: ['workOrder', 'technician', 'startsAt', 'endsAt', 'state'], sort: 'startsAt', filters: ['state', 'technician'] },
      site: { columns: ['name', 'customer', 'address', 'openOrders'], sort: 'name', filters: ['customer'] },
      equipment: { columns: ['name', 'serial', 'site', 'status'], sort: 'name', filters: ['status', 'site'] },
      customer: { columns: ['name', 'email', 'phone'], sort: 'name' },
      partLine: { columns: ['workOrder', 'description', 'quantity', 'unitPrice', 'total'], sort: '-createdAt' },
    },
    details: {
      customer: { related: { site: { label: 'Sites', columns: ['name', 'address', 'openOrders'] } } },
      site: {
        related: {
          equipment: { label: 'Equipment', columns: ['name', 'serial', 'status'] },
          workOrder: { label: 'Work orders', columns: ['title', 'state', 'priority', 'createdAt'], sort: '-createdAt' },
        },
      },
      workOrder: {
        related: {
          visit: { label: 'Visits', columns: ['technician', 'startsAt', 'endsAt', 'state'], sort: 'startsAt' },
          partLine: { label: 'Parts', columns: ['description', 'quantity', 'unitPrice', 'total'] },
        },
      },
    },
    home: {
      title: 'Today',
      widgets: [
        { kind: 'counts', entity: 'workOrder', by: 'state', title: 'Work orders by state', roles: ['dispatcher', 'admin'] },
        {
          kind: 'list',
          entity: 'workOrder',
          title: 'Overdue work orders',
          where: { field: 'state', op: 'eq', value: 'overdue' },
          sort: 'createdAt',
          columns: ['title', 'site', 'priority', 'createdAt'],
          roles: ['dispatcher', 'admin'],
        },
        {
          kind: 'list',
          entity: 'visit',
          title: 'My next visits',
          where: {
            all: [
              { field: 'technician', op: 'eq', value: { actor: true } },
              { field: 'state', op: 'eq', value: 'planned' },
            ],
          },
          sort: 'startsAt',
          columns: ['workOrder', 'startsAt', 'endsAt'],
          roles: ['technician'],
        },
        {
          kind: 'list',
          entity: 'workOrder',
          title: 'Open orders for my sites',
          where: { field: 'state', op: 'in', value: OPEN_ORDERS },
          sort: '-createdAt',
          columns: ['title', 'state', 'site', 'createdAt'],
          roles: ['customer'],
        },
      ],
    },
  },

  entities: {
    customer: {
      label: 'Customer',
      titleField: 'name',
      fields: {
        name: { type: 'text', required: true, maxLength: 120, searchable: true },
        email: { type: 'email' },
        phone: { type: 'text', maxLength: 40 },
      },
    },
    site: {
      label: 'Site',
      titleField: 'name',
      fields: {
        name: { type: 'text', required: true, maxLength: 120, searchable: true },
        customer: { type: 'reference', to: 'customer', required: true },
        address: { type: 'text', maxLength: 240 },
        openOrders: {
          type: 'integer',
          label: 'Open orders',
          derived: { count: 'workOrder', where: { field: 'state', op: 'in', value: OPEN_ORDERS } },
        },
      },
    },
    equipment: {
      label: 'Equipment',
      pluralLabel: 'Equipment',
      plural: 'equipment',
      titleField: 'name',
      fields: {
        name: { type: 'text', required: true, maxLength: 120, searchable: true },
        serial: { type: 'text', maxLength: 60, unique: true },
        site: { type: 'reference', to: 'site', required: true },
        status: {
          type: 'enum',
          values: ['inService', 'outOfService'],
          labels: { inService: 'In service', outOfService: 'Out of service' },
          colours: { outOfService: 'red' },
          default: 'inService',
          readOnly: true,
          help: 'Out of service from a work order until a visit completes it.',
        },
      },
    },
    workOrder: {
      label: 'Work order',
      titleField: 'title',
      description: 'A repair asked for on a site, planned as visits.',
      fields: {
        title: { type: 'text', required: true, maxLength: 160, searchable: true },
        site: { type: 'reference', to: 'site', required: true },
        equipment: { type: 'reference', to: 'equipment' },
        priority: {
          type: 'enum',
          values: ['low', 'normal', 'high'],
          labels: { low: 'Low', normal: 'Normal', high: 'High' },
          colours: { high: 'orange' },
          default: { $constant: 'defaultPriority' },
        },
        description: { type: 'markdown', maxLength: 5000 },
        partsTotal: { type: 'decimal', label: 'Parts total', derived: { sum: 'partLine.total' } },
        lastVisit: {
          type: 'datetime',
          label: 'Last visit',
          derived: { max: 'visit.startsAt', where: { field: 'state', op: 'eq', value: 'done' } },
        },
      },
      // A broken machine is out of service from the moment it is reported.
      onCreate: [{ on: 'equipment', set: 'status', to: 'outOfService', as: 'system' }],
    },
    partLine: {
      label: 'Part',
      titleField: 'description',
      fields: {
        workOrder: { type: 'reference', to: 'workOrder', required: true, onDelete: 'cascade' },
        description: { type: 'text', required: true, maxLength: 160 },
        quantity: { type: 'integer', required: true, min: 1, max: 1000, default: 1 },
        unitPrice: { type: 'decimal', label: 'Unit price', required: true, min: 0, max: 100000 },
        total: { type: 'decimal', computed: { multiply: [{ field: 'quantity' }, { field: 'unitPrice' }] } },
      },
    },
    visit: {
      label: 'Visit',
      titleField: 'workOrder',
      fields: {
        workOrder: { type: 'reference', to: 'workOrder', required: true },
        equipment: { type: 'reference', to: 'equipment' },
        technician: { type: 'user', roles: ['technician'], required: true },
        startsAt: { type: 'datetime', label: 'Starts at', required: true },
        durationMinutes: { type: 'integer', label: 'Duration (minutes)', required: true, min: 15, max: 720, default: 60 },
        endsAt: { type: 'datetime', label: 'Ends at', computed: { from: 'startsAt', plus: { minutes: { field: 'durationMinutes' } } } },
        report: { type: 'markdown', maxLength: 5000 },
        // Counted in the office's working days: a Friday visit's report is due on Tuesday, not on Sunday.
        reportDue: {
          type: 'datetime',
          label: 'Report due',
          computed: { from: 'startsAt', plus: { workingDays: constant('reportWorkingDays') } },
        },
      },
      exclusive: {
        range: ['startsAt', 'endsAt'],
        per: 'technician',
        where: { field: 'state', op: 'ne', value: 'cancelled' },
        message: 'This technician already has a visit at that time.',
        error: 'VISIT_OVERLAP',
      },
    },
  },

  workflows: {
    workOrder: {
      states: {
        open: { label: 'Open', initial: true },
        scheduled: { label: 'Scheduled' },
        overdue: { label: 'Overdue', description: 'Not started within the response time.' },
        inProgress: { label: 'In progress' },
        done: { label: 'Done', final: true },
        cancelled: { label: 'Cancelled', final: true },
      },
      transitions: {
        schedule: { label: 'Schedule', from: 'open', to: 'scheduled', allow: ['dispatcher', 'admin'] },
        goOverdue: {
          label: 'Go overdue',
          from: ['open', 'scheduled'],
          to: 'overdue',
          allow: [],
          auto: { after: 'createdAt', hours: constant('responseHours') },
        },
        start: { label: 'Start', from: ['open', 'scheduled', 'overdue'], to: 'inProgress', allow: ['technician', 'dispatcher', 'admin'] },
        finish: { label: 'Finish', from: 'inProgress', to: 'done', allow: ['technician', 'dispatcher', 'admin'] },
        cancel: {
          label: 'Cancel',
          from: ['open', 'scheduled', 'overdue'],
          to: 'cancelled',
          allow: ['dispatcher', 'admin'],
          comment: 'required',
        },
      },
    },
    visit: {
      states: {
        planned: { label: 'Planned', initial: true },
        done: { label: 'Done', final: true },
        cancelled: { label: 'Cancelled', final: true },
      },
      transitions: {
        complete: {
          label: 'Complete',
          from: 'planned',
          to: 'done',
          allow: [{ owner: 'technician' }, 'dispatcher', 'admin'],
          requires: ['report'],
          // The repair is done: its equipment is back in service.
          effects: [{ on: 'equipment', set: 'status', to: 'inService', as: 'system' }],
        },
        cancel: {
          label: 'Cancel',
          from: 'planned',
          to: 'cancelled',
          allow: ['dispatcher', 'admin'],
          guard: {
            field: 'startsAt',
            op: 'gt',
            value: { now: true, plus: { hours: constant('cancelNoticeHours') } },
          },
          guardError: 'TOO_LATE_TO_CANCEL',
        },
      },
    },
  },

  users: {
    fields: {
      customer: { type: 'reference', to: 'customer', help: 'The customer a customer account speaks for: they see its sites and orders.' },
    },
  },

  roles: {
    admin: { label: 'Administrator', description: 'Runs the service: users, customers, everything.' },
    dispatcher: { label: 'Dispatcher', description: 'Takes work orders and plans the visits.' },
    technician: { label: 'Technician', description: 'Visits sites, repairs equipment, logs parts.' },
    customer: { label: 'Customer', description: 'Follows and opens work orders for their own sites.' },
  },

  permissions: {
    customer: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      dispatcher: { list: true, read: true, create: true, update: true },
      technician: { list: true, read: true },
      customer: { read: { where: { field: 'id', op: 'eq', value: { actor: 'customer' } } } },
    },
    site: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      dispatcher: { list: true, read: true, create: true, update: true },
      technician: { list: true, read: true },
      customer: {
        list: { where: { field: 'customer', op: 'eq', value: { actor: 'customer' } } },
        read: { where: { field: 'customer', op: 'eq', value: { actor: 'customer' } } },
      },
    },
    equipment: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      dispatcher: { list: true, read: true, create: true, update: true },
      technician: { list: true, read: true },
      customer: { list: { via: 'site' }, read: { via: 'site' } },
    },
    workOrder: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      dispatcher: { list: true, read: true, create: true, update: true },
      technician: { list: true, read: true },
      customer: {
        list: { via: 'site' },
        read: { via: 'site' },
        create: { via: 'site' },
        hiddenFields: ['partsTotal'],
      },
    },
    partLine: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      dispatcher: { list: true, read: true, create: true, update: true, delete: true },
      technician: { list: true, read: true, create: true, update: true },
    },
    visit: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      dispatcher: { list: true, read: true, create: true, update: true },
      technician: { list: true, read: true, update: { own: 'technician' } },
      customer: { list: { via: 'workOrder' }, read: { via: 'workOrder' }, hiddenFields: ['report'] },
    },
  },

  errors: {
    VISIT_OVERLAP: { status: 409, title: 'Technician busy', message: 'This technician already has a visit at that time.' },
    TOO_LATE_TO_CANCEL: {
      status: 409,
      title: 'Too late to cancel',
      message: 'A visit can be cancelled until a few hours before it starts; call the technician instead.',
    },
  },

  constants: {
    responseHours: { value: 24, unit: 'hours', description: 'How long a work order may wait to be started before it is overdue.' },
    cancelNoticeHours: { value: 2, unit: 'hours', description: 'How long before its start a visit can still be cancelled.' },
    defaultPriority: { value: 'normal', description: 'The priority of a new work order unless one is given.' },
    reportWorkingDays: { value: 2, unit: 'working days', description: 'How long after a visit starts its report is due.' },
  },

  // The office's week and its public holidays, on Berlin's clock (purpose.timeZone).
  calendar: {
    weekend: ['saturday', 'sunday'],
    holidays: ['01-01', '05-01', '10-03', '12-25', '12-26', '2026-04-03', '2026-04-06', '2026-05-14', '2026-05-25'],
  },
});
