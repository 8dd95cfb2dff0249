import { defineApp } from 'ninefold';

/**
 * A lending library, as specs written outside the team shape it: a loan is titled by its item (a
 * reference) and has many columns, and the home has widgets for librarians only
 * (tests/browser/library.test.ts). Librarians see everything; members see the catalogue and
 * their own loans.
 */
export default defineApp({
  name: 'library-test',
  purpose: { title: 'Library' },
  roles: { librarian: { label: 'Librarian' }, member: { label: 'Member' } },
  entities: {
    item: {
      titleField: 'name',
      fields: {
        name: { type: 'text', required: true, maxLength: 120 },
        shelf: { type: 'text', maxLength: 20 },
        isbn: { type: 'text', maxLength: 20 },
      },
    },
    loan: {
      titleField: 'item',
      fields: {
        item: { type: 'reference', to: 'item', required: true },
        borrower: { type: 'user', required: true },
        branch: { type: 'enum', values: ['central', 'riverside', 'hillside'], default: 'central' },
        checkedOut: { type: 'date', required: true },
        due: { type: 'date', required: true },
        returned: { type: 'date' },
        renewals: { type: 'integer', min: 0, max: 5, default: 0 },
        fee: { type: 'decimal', precision: 8, scale: 2 },
        notes: { type: 'text', maxLength: 400 },
      },
    },
  },
  workflows: {
    loan: {
      states: { out: { initial: true }, returned: { final: true }, lost: { final: true } },
      transitions: {
        return: { from: 'out', to: 'returned', allow: ['librarian'] },
        lose: { label: 'Mark lost', from: 'out', to: 'lost', allow: ['librarian'] },
      },
    },
  },
  screens: {
    lists: {
      loan: {
        columns: [
          'item',
          'borrower',
          'state',
          'branch',
          'checkedOut',
          'due',
          'returned',
          'renewals',
          'fee',
          'notes',
          'createdAt',
          'updatedAt',
        ],
      },
    },
    details: {
      item: {
        related: {
          loan: { columns: ['borrower', 'state', 'branch', 'checkedOut', 'due', 'returned', 'renewals', 'fee', 'notes', 'createdAt'] },
        },
      },
    },
    home: {
      widgets: [
        {
          kind: 'list',
          entity: 'loan',
          title: 'Loans out',
          where: { field: 'state', op: 'eq', value: 'out' },
          columns: ['borrower', 'due', 'branch', 'notes'],
        },
        // The librarians' own: members (who may list their loans) are not shown them.
        { kind: 'counts', entity: 'loan', by: 'state', roles: ['librarian'] },
        {
          kind: 'list',
          entity: 'loan',
          title: 'Renewed loans',
          where: { field: 'renewals', op: 'gt', value: 0 },
          roles: ['librarian', 'admin'],
        },
      ],
    },
  },
  permissions: {
    item: {
      librarian: { list: true, read: true, create: true, update: true, delete: true },
      member: { list: true, read: true },
    },
    loan: {
      librarian: { list: true, read: true, create: true, update: true, delete: true, transitions: { return: true, lose: true } },
      member: { list: { own: 'borrower' }, read: { own: 'borrower' } },
    },
  },
});
