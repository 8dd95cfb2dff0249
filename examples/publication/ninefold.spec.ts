import { constant, defineApp } from 'ninefold';

/**
 * A small newsroom: writers draft articles for their team, editors of the team review and
 * publish them, and anyone (signed in or not) reads what is published. Written against the spec
 * format only: Ninefold has no code for it.
 */
export default defineApp({
  name: 'publication',

  purpose: {
    title: 'Newsroom',
    summary: 'Teams of writers draft articles, their editors publish them, and the public reads them.',
    audience: [
      'Readers, signed in or not',
      'Writers who draft for their team',
      'Editors who publish their team’s articles',
      'Administrators',
    ],
  },

  screens: {
    navigation: ['article', 'tag', 'team', 'enquiry'],
    lists: {
      article: {
        columns: ['title', 'state', 'section', 'tags', 'team', 'author', 'publishedAt'],
        sort: '-updatedAt',
        filters: ['state', 'section', 'tags', 'team'],
      },
      tag: { columns: ['name'], sort: 'name' },
      team: { columns: ['name'], sort: 'name' },
      enquiry: { columns: ['subject', 'email', 'createdAt'], sort: '-createdAt' },
    },
    // Readers (signed in with no staff role, or not at all) read a front page and articles, not the back office.
    presentation: {
      article: {
        roles: ['public'],
        headline: 'title',
        summary: 'summary',
        body: 'body',
        date: 'publishedAt',
        byline: 'author',
        tags: 'tags',
        slug: 'slug',
        feed: true,
      },
    },
  },

  // Who people are beyond their roles: the team a writer or editor works in.
  users: {
    fields: {
      team: { type: 'reference', to: 'team' },
    },
  },

  entities: {
    team: {
      label: 'Team',
      titleField: 'name',
      fields: { name: { type: 'text', required: true, unique: true, minLength: 2, maxLength: 80 } },
      samples: { name: ['City desk', 'Politics', 'Sport', 'Culture', 'Business', 'Science and health', 'Features', 'Opinion'] },
    },
    tag: {
      label: 'Tag',
      titleField: 'name',
      fields: { name: { type: 'text', required: true, unique: true, minLength: 2, maxLength: 40, searchable: true } },
    },
    article: {
      label: 'Article',
      titleField: 'title',
      fields: {
        title: { type: 'text', required: true, minLength: 3, maxLength: 200, searchable: true },
        // The article's address (/articles/<slug>): made from the title once, kept when the title changes.
        slug: { type: 'text', maxLength: 100, computed: { slug: 'title' } },
        summary: { type: 'text', maxLength: 300, help: 'A sentence or two for the front page and search engines.' },
        body: { type: 'markdown', maxLength: 50000, searchable: true },
        section: {
          type: 'enum',
          values: ['news', 'sport', 'culture'],
          labels: { news: 'News', sport: 'Sport', culture: 'Culture' },
          // A section at a glance in the list, as a newsroom colours its desks.
          colours: { news: 'blue', sport: 'green', culture: 'purple' },
          default: 'news',
          required: true,
        },
        tags: { type: 'references', to: 'tag', maxItems: 10 },
        team: { type: 'reference', to: 'team', required: true },
        author: { type: 'user', default: 'actor', required: true, roles: ['writer', 'editor', 'admin'] },
        featured: { type: 'boolean', default: false, help: 'Shown first in its section; one per section.' },
        publishedAt: { type: 'datetime', label: 'Published', readOnly: true },
      },
      // One featured article per section among those published.
      uniqueWhen: {
        fields: ['section'],
        where: {
          all: [
            { field: 'featured', op: 'eq', value: true },
            { field: 'state', op: 'eq', value: 'published' },
          ],
        },
        message: 'Another published article is already featured in this section.',
      },
      limits: {
        draftsPerTeam: {
          max: constant('maxDraftsPerTeam'),
          per: 'team',
          where: { field: 'state', op: 'in', value: ['draft', 'review'] },
          message: 'Your team already has {max} drafts and articles in review, the most it may have; publish or archive some first.',
        },
      },
    },
    enquiry: {
      label: 'Enquiry',
      pluralLabel: 'Enquiries',
      description: 'A message from a reader, sent with the contact form.',
      titleField: 'subject',
      fields: {
        subject: { type: 'text', required: true, minLength: 3, maxLength: 200 },
        email: { type: 'email', required: true },
        message: { type: 'markdown', required: true, maxLength: 5000 },
      },
      // Demo data: what readers write to a newsroom, each subject with its message (lists of one length go together).
      samples: {
        subject: [
          "Correction to Tuesday's article on housing",
          'Question about my subscription',
          'Story tip: new cycle lanes in our street',
          'Letter to the editor',
          'Photo credit missing',
          'Invitation to our community festival',
          'Broken link on the culture page',
          'May I reuse one of your photos?',
          'Complaint about a headline',
          'Thank you for the football coverage',
        ],
        message: [
          'The article says the vote was on Monday, but it took place on Wednesday. Could you correct it?',
          'I have been charged twice this month for my subscription. Could someone look into it?',
          'Our street is getting new cycle lanes next month and nobody asked the residents. I think it is worth a story.',
          'Thank you for your coverage of the council meeting.\n\nAs a resident of the east side I would add that the bus plan leaves out two of our stops.',
          'The photo of the bridge in Saturday’s paper is mine. I am happy for you to use it, but please credit me.',
          'We are holding a community festival on the first Sunday of June and would love to see you there. Details are on our website.',
          'The link to the theatre programme at the end of the article leads to a page that does not exist.',
          'I am writing a school project and would like to use your photo of the harbour. Is that allowed?',
          'The headline on the schools article gives the wrong impression of what the report found.',
          'Great reporting on the local league this season. My whole family reads it every Monday.',
        ],
      },
    },
  },

  workflows: {
    article: {
      states: {
        draft: { label: 'Draft', initial: true },
        review: { label: 'In review' },
        published: { label: 'Published' },
        archived: { label: 'Archived', final: true },
      },
      transitions: {
        submit: { label: 'Submit for review', from: 'draft', to: 'review', allow: [{ owner: 'author' }, 'editor'] },
        publish: {
          label: 'Publish',
          from: 'review',
          to: 'published',
          allow: ['editor', 'admin'],
          // Four eyes: an editor never publishes what they wrote.
          guard: { field: 'author', op: 'ne', value: { actor: 'id' } },
          guardMessage: 'Someone other than the author must publish it.',
          effects: [{ set: 'publishedAt', to: 'now' }],
        },
        reject: { label: 'Send back', from: 'review', to: 'draft', allow: ['editor', 'admin'], comment: 'optional' },
        archive: { label: 'Archive', from: ['draft', 'published'], to: 'archived', allow: ['editor', 'admin'] },
      },
    },
  },

  roles: {
    admin: { label: 'Administrator' },
    editor: { label: 'Editor', description: 'Reviews and publishes the articles of their team.' },
    writer: { label: 'Writer', description: 'Drafts articles for their team.' },
    public: { label: 'Reader', description: 'Anyone, signed in or not.' },
  },

  permissions: {
    article: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      // Readers see what is published, never which team wrote it.
      public: {
        list: { where: { field: 'state', op: 'eq', value: 'published' } },
        read: { where: { field: 'state', op: 'eq', value: 'published' } },
        hiddenFields: ['team', 'featured'],
      },
      writer: {
        list: { where: { field: 'team', op: 'eq', value: { actor: 'team' } } },
        read: { where: { field: 'team', op: 'eq', value: { actor: 'team' } } },
        create: { where: { field: 'team', op: 'eq', value: { actor: 'team' } } },
        update: { own: 'author', where: { field: 'state', op: 'eq', value: 'draft' } },
        writableFields: ['title', 'summary', 'body', 'section', 'tags', 'team'],
      },
      editor: {
        list: { where: { field: 'team', op: 'eq', value: { actor: 'team' } } },
        read: { where: { field: 'team', op: 'eq', value: { actor: 'team' } } },
        create: { where: { field: 'team', op: 'eq', value: { actor: 'team' } } },
        update: { where: { field: 'team', op: 'eq', value: { actor: 'team' } } },
        // Editors read every published article (as the public does), but archive only their team's.
        transitions: { archive: { where: { field: 'team', op: 'eq', value: { actor: 'team' } } } },
      },
    },
    tag: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      public: { list: true, read: true },
      editor: { create: true },
    },
    team: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      writer: {
        list: { where: { field: 'id', op: 'eq', value: { actor: 'team' } } },
        read: { where: { field: 'id', op: 'eq', value: { actor: 'team' } } },
      },
      editor: {
        list: { where: { field: 'id', op: 'eq', value: { actor: 'team' } } },
        read: { where: { field: 'id', op: 'eq', value: { actor: 'team' } } },
      },
    },
    // The contact form: anyone may send one; only administrators read them.
    enquiry: {
      admin: { list: true, read: true, delete: true },
      public: { create: true },
    },
  },

  constants: {
    maxDraftsPerTeam: { value: 25, unit: 'articles', description: 'Drafts and articles in review one team may have at once.' },
  },
});
