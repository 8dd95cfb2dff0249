import { sql, type RawBuilder } from 'kysely';
import { rowScope } from '../access/authorize';
import { fieldSight } from '../access/field-sight';
import type { AppModel, EntityModel } from '../spec/model';
import { USER_TABLE } from '../store/schema/desired';
import { titleRule } from '../spec/title-rule';
import type { Actor } from '../ground/actor';

/**
 * References followed at most to name a record. The spec check refuses titles that refer back
 * to themselves (validate/entities.ts), so this is a backstop, not a rule.
 */
const MAX_TITLE_HOPS = 4;

/** A record's title for one viewer as SQL over one row of its table. */
export interface TitleSql {
  /** The title as text, never null: "<Label> #<id>" where there is none this viewer may see. */
  readonly text: RawBuilder<string>;
  /** The text is Markdown, to be reduced to its words (record-title.ts `titleText`). */
  readonly markdown: boolean;
  /** What to order by: the title field's own column (numbers as numbers), else the text, or the id for the fallback. */
  readonly order: RawBuilder<unknown>;
}

/**
 * The title of records of `entity` as `actor` may see them, by the entity's title rule
 * (record-title.ts), over the row named `row` (its table's name or an alias) of an enclosing
 * query. A title that refers to a record is that record's title, read in the same statement by a
 * subquery on its primary key (so a page of titles costs one query, whatever the number of
 * rows or hops), and only when the viewer may read that record (its read scope is part of the
 * subquery) and the field that refers to it; a title that refers to a user is their name. Where
 * any of this is not so, the record is "<Label> #<id>": a title never tells what its viewer may
 * not read.
 */
export function titleSql(model: AppModel, entity: EntityModel, actor: Actor, row: string, hop = 0): TitleSql {
  const id = sql.ref(`${row}.id`);
  const fallback = sql<string>`(${`${entity.label} #`}::text || ${id}::text)`;
  const none: TitleSql = { text: fallback, markdown: false, order: id };
  const rule = titleRule(entity);
  const sight = fieldSight(model, entity, actor);
  if (rule.kind === 'none' || !sight.readable.has(rule.field.name)) return none;
  // Read on some records only (field-sight.ts): empty, so the fallback, on the others.
  const readableWhere = sight.readableWhere(rule.field.name);
  const own = sql.ref(`${row}.${rule.field.column}`);
  const column = readableWhere ? sql`(case when ${readableWhere} then ${own} end)` : own;

  switch (rule.kind) {
    case 'value':
      return {
        text: sql<string>`coalesce(nullif(btrim(${column}::text), ''), ${fallback})`,
        markdown: rule.field.type === 'markdown',
        order: column,
      };
    case 'user': {
      const user = `nf_title_user_${hop}`;
      const name = sql<string>`(select coalesce(nullif(btrim(${sql.ref(`${user}.name`)}), ''), ${'User #'}::text || ${sql.ref(`${user}.id`)}::text) from ${sql.table(USER_TABLE)} as ${sql.id(user)} where ${sql.ref(`${user}.id`)} = ${column})`;
      const text = sql<string>`coalesce(${name}, ${fallback})`;
      return { text, markdown: false, order: text };
    }
    case 'reference': {
      const target = model.entitiesByName[rule.target];
      const scope = target ? rowScope(model, target, actor, 'read') : null;
      if (!target || !scope || hop >= MAX_TITLE_HOPS) return none;
      // An alias of its own per hop, so that the scope's unqualified columns bind to the referenced row.
      const alias = `nf_title_${hop + 1}`;
      const inner = titleSql(model, target, actor, alias, hop + 1);
      const referred = sql<string>`(select ${inner.text} from ${sql.table(target.table)} as ${sql.id(alias)} where ${sql.ref(`${alias}.id`)} = ${column} and ${scope.sql})`;
      const text = sql<string>`coalesce(${referred}, ${fallback})`;
      return { text, markdown: inner.markdown, order: text };
    }
  }
}
