// The ground of the engine: see actor.ts.

/** A field's value: a references field (many-to-many) holds the ids of the records, in ascending order. */
export type RecordValue = string | number | boolean | Date | null | readonly number[];
