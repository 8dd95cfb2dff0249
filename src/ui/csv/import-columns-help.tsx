import type { AppModel, FieldModel } from '@/engine/spec/model';
import { indefinite, inSentence } from '@/engine/spec/naming';
import { digitsOf } from '@/engine/spec/field-numbers';
import { TableScroll } from '../table-scroll';
import { knownEntity } from '../known-names';

/** 1234 (JPY), 1234.50 (EUR), 1234.500 (BHD): as the export writes amounts. */
function plainAmountExample(scale: number): string {
  return scale === 0 ? '1234' : `1234.${'5'.padEnd(scale, '0')}`;
}

/** What to write in a column of the file for a field, in the words of the import's reading rules (src/engine/csv/import-cells.ts). */
function accepted(model: AppModel, field: FieldModel): string {
  const spec = field.spec;
  switch (spec.type) {
    case 'enum': {
      const labels = spec.labels ?? {};
      return `One of: ${spec.values.map((v) => (labels[v] && labels[v] !== v ? `${labels[v]} (${v})` : v)).join(', ')}.`;
    }
    case 'boolean':
      return 'Yes or no (also true/false, 1/0).';
    case 'date':
      return 'A date: 2025-03-01 or Mar 1, 2025.';
    case 'datetime':
      return 'A date and time in UTC: 2025-03-01 14:30, or Mar 1, 2025, 14:30 UTC.';
    case 'reference': {
      const target = knownEntity(model, spec.to);
      const title = target.titleField ? inSentence(target.fieldsByName[target.titleField]?.label ?? target.titleField) : undefined;
      return `${title ? `The exact ${title} or the id` : 'The id'} of ${indefinite(target.label)}.`;
    }
    case 'user':
      return "A user's email (or name, or id).";
    case 'users':
      return `Users' emails (or names, or ids), separated by ";" (ann@example.com;7).`;
    case 'references':
      return `The ids of ${inSentence(knownEntity(model, spec.to).pluralLabel)}, separated by ";" (3;7), as the export writes them.`;
    case 'integer':
      return 'A whole number.';
    case 'decimal':
      return `A number${spec.scale !== undefined ? ` with at most ${spec.scale} decimals` : ''}.`;
    case 'money':
      return `An amount of ${field.currency} as a plain number (${plainAmountExample(digitsOf(field).scale)}), without a symbol or separators.`;
    case 'email':
      return 'An email address.';
    case 'url':
      return 'A web address starting with http:// or https://.';
    case 'markdown':
      return 'Text (Markdown); values may span several lines when quoted.';
    default:
      return 'Text.';
  }
}

function defaultText(field: FieldModel): string | null {
  const given = field.defaultTo;
  if (given === undefined) return null;
  if (given.kind === 'actor') return 'you';
  if (given.kind === 'now') return 'the time of the import';
  if (given.kind === 'ownRecord') return `your own ${given.entity}, when you have one`;
  const d = given.value;
  if (field.spec.type === 'enum') return field.spec.labels?.[String(d)] ?? String(d);
  if (typeof d === 'boolean') return d ? 'yes' : 'no';
  return String(d);
}

/** The columns a file may have, for the signed-in user: label, whether it is needed, what to write. */
export function ImportColumnsHelp({ model, fields }: { model: AppModel; fields: readonly FieldModel[] }) {
  return (
    <TableScroll label="Columns of the file">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Columns of the file</caption>
        <thead className="border-b border-zinc-200 text-xs font-medium text-zinc-600 uppercase">
          <tr>
            <th scope="col" className="py-2 pr-4">
              Column
            </th>
            <th scope="col" className="py-2 pr-4">
              Needed
            </th>
            <th scope="col" className="py-2">
              What to write
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {fields.map((field) => {
            const fallback = defaultText(field);
            return (
              <tr key={field.name} className="align-top">
                <th scope="row" className="py-2 pr-4 font-medium text-zinc-900">
                  {field.label}
                </th>
                <td className="py-2 pr-4 text-zinc-700">
                  {field.required && fallback === null ? 'Required' : fallback !== null ? `Optional (default: ${fallback})` : 'Optional'}
                </td>
                <td className="py-2 text-zinc-700">{accepted(model, field)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
