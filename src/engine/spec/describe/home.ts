import { PUBLIC_ROLE } from '../../access/visitor';
import type { DocBlock } from '../document';
import type { AppModel, EntityModel } from '../model';
import { labelOf, LIST_WIDGET_COUNT_CAP, seeAllTarget } from '../screens/home';
import { type WidgetModel } from '../screens/home-model';
import type { Condition } from '../types';
import { code, conditionText } from './text';
import { inSentence } from '../naming';
import { declaredValue } from '../own-names';

/**
 * The home page (`/`) in words, exactly as src/ui/home renders it: the spec's widgets, or the
 * default counts per entity and state. Nothing for a spec without entities (the bare shell).
 */
export function homeBlocks(model: AppModel): DocBlock[] {
  if (model.entities.length === 0) return [];
  const heading: DocBlock = { kind: 'heading', text: `Home (${code('/')})` };
  const access: DocBlock = {
    kind: 'paragraph',
    text: 'Every number counts only the records the user may list. A widget that needs a field the user may not read, or an entity the user may not list, is left out for them; so is one for other roles (administrators too, unless it names them).',
  };
  if (!model.home) {
    return [
      heading,
      {
        kind: 'paragraph',
        text: 'For each entity of the navigation that the user may list: how many records they may see, and how many are in each state, each a link to the list (filtered by that state where the list can be).',
      },
      access,
    ];
  }
  return [
    heading,
    ...(model.home.title ? [{ kind: 'paragraph' as const, text: `Title: ${model.home.title}` }] : []),
    { kind: 'table', columns: ['Widget', 'Shows'], rows: model.home.widgets.map((w) => [w.title, widgetText(model, w)]) },
    access,
  ];
}

/** What one widget shows, in a sentence (the home's, or a dashboard route's), and to whom when not to everyone. */
export function widgetText(model: AppModel, widget: WidgetModel): string {
  const audience = widgetAudience(widget);
  return audience ? `${shownText(model, widget)}; ${audience}` : shownText(model, widget);
}

/** "shown only to editor, admin" for a widget with roles; null for one everyone who opens the page sees. */
export function widgetAudience(widget: WidgetModel): string | null {
  if (widget.roles === null || widget.roles.includes(PUBLIC_ROLE)) return null;
  return `shown only to ${widget.roles.join(', ')}`;
}

function shownText(model: AppModel, widget: WidgetModel): string {
  const entity = declaredValue(model.entitiesByName, widget.entity, 'entity');
  const where = (condition: Condition | null) => (condition ? ` where ${conditionText(condition, entity)}` : '');
  switch (widget.kind) {
    case 'counts': {
      const what = widget.sum
        ? `The sum of ${labelOf(entity, widget.sum)} of ${inSentence(entity.pluralLabel)}`
        : `How many ${inSentence(entity.pluralLabel)}`;
      const values = widget.values
        ? ` (${widget.values.map((v) => valueText(entity, widget.by, v)).join(', ')}, then any other value found)`
        : '';
      const link = entity.list.filters.includes(widget.by)
        ? `each a link to ${code(`/${entity.plural}`)} filtered by that ${labelOf(entity, widget.by)}${widget.where ? ' (the link does not carry the condition)' : ''}`
        : 'as plain numbers (the list cannot be filtered by it)';
      return `${what}${where(widget.where)}, per ${labelOf(entity, widget.by)}${values}, and the total; ${link}`;
    }
    case 'list': {
      const sort = widget.sort.replace(/^-/, '');
      const target = seeAllTarget(model, widget);
      const seeAll = !target
        ? 'no "See all" link (no page lists exactly these records)'
        : target.kind === 'route'
          ? `"See all" opens ${code(target.path)}`
          : `"See all" opens ${code(`/${entity.plural}`)}${
              Object.keys(target.filters).length > 0
                ? ` filtered by ${Object.keys(target.filters)
                    .map((f) => labelOf(entity, f))
                    .join(', ')}`
                : ''
            }`;
      return [
        `Up to ${widget.limit} ${inSentence(entity.pluralLabel)}${where(widget.where)}, sorted by ${labelOf(entity, sort)}, ${widget.sort.startsWith('-') ? 'descending' : 'ascending'}`,
        `each a link with ${widget.columns.map((c) => labelOf(entity, c)).join(', ')}`,
        `how many match in all (counted up to ${LIST_WIDGET_COUNT_CAP}, then "${LIST_WIDGET_COUNT_CAP}+")`,
        seeAll,
      ].join('; ');
    }
    case 'chart':
      return `${entity.pluralLabel} per day (UTC) over the last ${widget.days} days, one line per ${widget.series.map((s) => `${s.label} (${s.field})`).join(', ')}: a chart drawn on the server with its numbers in words and in a table`;
  }
}

function valueText(entity: EntityModel, field: string, value: string): string {
  if (entity.workflow && field === entity.workflow.field) return entity.workflow.states.find((s) => s.name === value)?.label ?? value;
  return value;
}
