/**
 * Whether plain `JSON.stringify` / `JSON.parse` carries a value across a round unchanged, so the
 * sealer can skip superjson for it. Measured on the bench's snapshots: superjson.stringify took
 * 3.9 µs where JSON.stringify took 1.1 (its walk builds paths and metadata even when there is
 * nothing to annotate), and most machine contexts are plain data.
 *
 * Faithful means: plain objects (Object.prototype), dense arrays, strings, booleans, null and
 * finite numbers other than -0; no undefined anywhere (superjson keeps it, JSON drops it); and no
 * object reached twice (superjson restores shared references, JSON would make copies).
 */
export function isJsonFaithful(value: unknown): boolean {
  return faithful(value, new Set());
}

function faithful(value: unknown, seen: Set<object>): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (seen.has(value)) return false;
  seen.add(value);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      if (!(index in value) || !faithful(value[index], seen)) return false;
    }
    return true;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key in value) {
    if (!faithful((value as Record<string, unknown>)[key], seen)) return false;
  }
  return true;
}
