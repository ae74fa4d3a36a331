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
      // Keys and members are walked too: superjson would turn a class instance among them into a
      // plain object and a function into null, without a word.
      if (object instanceof Map) {
        let index = 0;
        for (const [key, item] of object) {
          const found =
            findUnserializable(key, `${path} key #${index}`, seen) ??
            findUnserializable(item, `${path}.get(${describeKey(key)})`, seen);
          if (found) return found;
          index += 1;
        }
      }
      if (object instanceof Set) {
        let index = 0;
        for (const member of object) {
          const found = findUnserializable(member, `${path} member #${index}`, seen);
          if (found) return found;
          index += 1;
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

function describeKey(key: unknown): string {
  return typeof key === 'string' ? JSON.stringify(key) : typeof key === 'object' && key !== null ? '{…}' : String(key);
}
