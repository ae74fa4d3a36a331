/** Small checks and shapes for the plain JSON objects that cross the wire. */

/** A JSON object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Drops undefined fields, so optional metadata is absent rather than null on the wire. */
export function definedFields<T extends object>(entries: T): DefinedFields<T> {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined)) as DefinedFields<T>;
}

/** Every field optional, and a field that is there is never undefined. */
export type DefinedFields<T> = { [K in keyof T]?: Exclude<T[K], undefined> };
