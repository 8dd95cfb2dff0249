/** A value the engine computes, as an edit form shows it: its label, its text, and how it is computed. */
export interface ComputedValueView {
  readonly name: string;
  readonly label: string;
  readonly text: string;
  readonly note: string;
}

/**
 * The computed fields of the record being edited, shown as values rather than inputs: no door
 * writes them, and saving the form recomputes them from the fields above.
 */
export function ComputedValues({ values }: { values: readonly ComputedValueView[] }) {
  if (values.length === 0) return null;
  return (
    <dl className="grid gap-3 rounded-md border border-zinc-200 bg-zinc-50 p-4 text-sm" aria-label="Computed values">
      {values.map((value) => (
        <div key={value.name}>
          <dt className="font-medium text-zinc-700">{value.label}</dt>
          <dd className="text-zinc-900">{value.text}</dd>
          <dd className="text-xs text-zinc-500">{value.note}</dd>
        </div>
      ))}
    </dl>
  );
}
