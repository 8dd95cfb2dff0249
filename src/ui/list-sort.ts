import type { ListColumn } from './columns';

/** Each sortable column of a list in both directions, as the sort parameter and its words. */
export function sortChoices(columns: readonly ListColumn[]): { value: string; label: string }[] {
  return columns
    .filter((column) => column.sortable)
    .flatMap((column) => {
      const time =
        column.kind === 'field'
          ? column.field.type === 'date' || column.field.type === 'datetime'
          : column.name === 'createdAt' || column.name === 'updatedAt';
      const [up, down] = time ? ['earliest first', 'latest first'] : ['ascending', 'descending'];
      return [
        { value: column.name, label: `${column.label}, ${up}` },
        { value: `-${column.name}`, label: `${column.label}, ${down}` },
      ];
    });
}
