/**
 * Finds the first value in a machine context that superjson cannot carry across a round
 * (functions, symbols, class instances it does not know). superjson would drop or mangle them
 * silently, so the registry and the sealer name the path instead.
 */
const SUPPORTED_CLASSES = new Set<unknown>([Date, Map, Set, RegExp, URL, Error]);

export function findUnserializable(value: unknown, path = 'context', seen = new Set<object>()): string | undefined {
  const type = typeof value;
  if (type === 'function') return `${path} is a function`;
  if (type === 'symbol') return `${path} is a symbol`;
  if (type !== 'object' || value === null) return undefined;
  const object = value as object;
  if (seen.has(object)) return `${path} is a circular reference`;
  seen.add(object);
  try {
    if (Array.isArray(object)) {
      for (const [index, item] of object.entries()) {
        const found = findUnserializable(item, `${path}[${index}]`, seen);
        if (found) return found;
      }
      return undefined;
    }
    const prototype = Object.getPrototypeOf(object);
    if (prototype !== Object.prototype && prototype !== null) {
      if ((object as { xstate$$type?: unknown }).xstate$$type !== undefined) return undefined;
      if (![...SUPPORTED_CLASSES].some((cls) => object instanceof (cls as new () => object))) {
        return `${path} is an instance of ${prototype?.constructor?.name ?? 'an unknown class'}`;
      }
      if (object instanceof Map) {
        for (const [key, item] of object) {
          const found = findUnserializable(item, `${path}.get(${String(key)})`, seen);
          if (found) return found;
        }
      }
      return undefined;
    }
    for (const [key, item] of Object.entries(object)) {
      const found = findUnserializable(item, `${path}.${key}`, seen);
      if (found) return found;
    }
    return undefined;
  } finally {
    seen.delete(object);
  }
}
