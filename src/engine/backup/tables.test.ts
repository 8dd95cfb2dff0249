import { describe, expect, it } from 'vitest';
import type { CatalogueColumn, CatalogueConstraint, CatalogueTable } from '../store/schema/types';
import { copiedTables } from './tables';

const column = (name: string, extra: Partial<CatalogueColumn> = {}): CatalogueColumn => ({
  name,
  type: 'bigint',
  nullable: true,
  default: null,
  identity: false,
  generated: null,
  comment: null,
  ...extra,
});

function table(name: string, references: string[] = [], extra: { columns?: CatalogueColumn[]; primary?: boolean } = {}): CatalogueTable {
  const constraints: CatalogueConstraint[] = [
    ...(extra.primary === false ? [] : [{ name: `${name}_pkey`, kind: 'primary' as const, columns: ['id'] }]),
    ...references.map((to) => ({
      name: `${name}_${to}_fkey`,
      kind: 'foreign' as const,
      columns: [`${to}_id`],
      references: { table: to, columns: ['id'] },
      onDelete: 'restrict' as const,
    })),
  ];
  return { name, columns: extra.columns ?? [column('id', { identity: true, nullable: false })], constraints, indexes: [] };
}

describe('copiedTables', () => {
  it('puts every table after the tables it references, and leaves out the skipped ones', () => {
    const order = copiedTables([
      table('comment', ['ticket', 'nf_user']),
      table('nf_session', ['nf_user']),
      table('ticket', ['nf_user', 'organization']),
      table('nf_user'),
      table('organization'),
    ]).map((t) => t.name);
    expect(order).toEqual(['nf_user', 'organization', 'ticket', 'comment']);
  });

  it('places tables of a cycle and a table that refers to itself (the import defers those checks)', () => {
    const order = copiedTables([table('a', ['b']), table('b', ['a']), table('c', ['c', 'a'])]).map((t) => t.name);
    expect(order).toEqual(['a', 'b', 'c']);
  });

  it('breaks a cycle at the table the most others wait for: users whose user field refers to an entity', () => {
    const order = copiedTables([
      table('organization', ['nf_user']),
      table('ticket', ['nf_user', 'organization']),
      table('nf_user', ['organization']),
      table('nf_audit', ['nf_user']),
    ]).map((t) => t.name);
    expect(order).toEqual(['nf_user', 'organization', 'ticket', 'nf_audit']);
  });

  it('leaves out generated columns and knows the identity column', () => {
    const [copied] = copiedTables([
      table('ticket', [], {
        columns: [
          column('id', { identity: true }),
          column('subject', { type: 'text' }),
          column('search', { type: 'tsvector', generated: "to_tsvector('simple', subject)" }),
        ],
      }),
    ]);
    expect(copied!.columns.map((c) => c.name)).toEqual(['id', 'subject']);
    expect(copied!.identity).toBe('id');
  });

  it('refuses a table without a primary key (it could not be read in order)', () => {
    expect(() => copiedTables([table('loose', [], { primary: false })])).toThrow(/loose has no primary key/);
  });
});
