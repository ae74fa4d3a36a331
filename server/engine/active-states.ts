/**
 * Where a machine stands, read from a persisted snapshot's `value`: the task console, `baton tasks`
 * and a replay show these paths.
 */
/** The active states of an XState snapshot value (`'a'`, `{ a: 'b' }`, `{ p: { x: 'y', z: {} } }`) as key paths. */
export function activeStates(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return [prefix + value];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return prefix ? [prefix.slice(0, -1)] : [];
  const entries = Object.entries(value as Record<string, unknown>);
  // `{ region: {} }`: a parallel region or compound state entered with no child active yet.
  if (entries.length === 0) return prefix ? [prefix.slice(0, -1)] : [];
  return entries.flatMap(([key, child]) => activeStates(child, `${prefix}${key}.`));
}
