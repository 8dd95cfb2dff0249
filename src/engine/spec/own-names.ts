/**
 * Names that come from a client (a body's keys, a form's or a query's parameters, a CSV's
 * headers, a saved view, a path) are looked up among declared names only. A plain object also
 * answers for what every object inherits (`constructor`, `toString`, `valueOf`,
 * `hasOwnProperty`, `__proto__`...), and JSON.parse gives a body an own `__proto__` key: looked
 * up with `table[name]` or `name in table`, those would pass for declared names. These two are
 * how such names are looked up.
 */

/**
 * A table of declared names with no prototype, so that `table[name]` and `name in table` see its
 * own names only. The model's tables of entities and fields are these. (A server component must
 * not hand one to a client component: React sends plain objects only.)
 */
export function nameTable<T>(entries: Iterable<readonly [string, T]>): Readonly<Record<string, T>> {
  const table = Object.create(null) as Record<string, T>;
  for (const [name, value] of entries) table[name] = value;
  return table;
}

/** The value under one of the object's own names; undefined for any other, an inherited one included. */
export function ownValue<T>(table: Readonly<Record<string, T>> | undefined, name: string): T | undefined {
  return table !== undefined && Object.hasOwn(table, name) ? table[name] : undefined;
}

/**
 * The value under a name the spec validator has already checked is declared (the entity a widget
 * shows, the field a section follows, a constant a due time reads). Its absence would be a bug in
 * the engine, not a mistake in the spec: it throws, rather than going on with undefined.
 */
export function declaredValue<T>(table: Readonly<Record<string, T>>, name: string, what: string): T {
  const value = ownValue(table, name);
  if (value === undefined) throw new Error(`The model has no ${what} "${name}", though the spec validator checks that it does.`);
  return value;
}
