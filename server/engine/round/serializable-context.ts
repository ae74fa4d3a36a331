/**
 * Finds the first value in a machine context that superjson cannot carry across a round
 * (functions, symbols, class instances it does not know). superjson would drop or mangle them
 * silently, so the registry and the sealer name the path instead.
 *
 * The context is walked on every round that pauses, so the path is only spelled out once
 * something is found: the walk collects its steps on the way back out.
 */
const SUPPORTED_CLASSES: ReadonlyArray<new (...args: never[]) => object> = [Date, Map, Set, RegExp, URL, Error];

interface Found {
  /** Path steps from the outside in (`.name`, `[0]`, ` key #1`…). */
  steps: string[];
  /** What is wrong, e.g. "is a function". */
  what: string;
}

export function findUnserializable(value: unknown, path = 'context'): string | undefined {
  const found = find(value, new Set());
  return found && `${path}${found.steps.reverse().join('')} ${found.what}`;
}

function found(what: string): Found {
  return { steps: [], what };
}

/** Adds the step that led to a value found inside (steps are collected innermost first). */
function via(inner: Found, step: string): Found {
  inner.steps.push(step);
  return inner;
}

function find(value: unknown, seen: Set<object>): Found | undefined {
  const type = typeof value;
  if (type === 'function') return found('is a function');
  if (type === 'symbol') return found('is a symbol');
  if (type !== 'object' || value === null) return undefined;
  const object = value as object;
  if (seen.has(object)) return found('is a circular reference');
  seen.add(object);
  try {
    if (Array.isArray(object)) {
      for (let index = 0; index < object.length; index++) {
        const inner = find(object[index], seen);
        if (inner) return via(inner, `[${index}]`);
      }
      return undefined;
    }
    const prototype = Object.getPrototypeOf(object);
    if (prototype !== Object.prototype && prototype !== null) return findInInstance(object, prototype, seen);
    for (const key in object) {
      const inner = find((object as Record<string, unknown>)[key], seen);
      if (inner) return via(inner, `.${key}`);
    }
    return undefined;
  } finally {
    seen.delete(object);
  }
}

function findInInstance(object: object, prototype: { constructor?: { name?: string } }, seen: Set<object>) {
  if ((object as { xstate$$type?: unknown }).xstate$$type !== undefined) return undefined;
  if (!SUPPORTED_CLASSES.some((cls) => object instanceof cls)) {
    return found(`is an instance of ${prototype?.constructor?.name ?? 'an unknown class'}`);
  }
  // Keys and members are walked too: superjson would turn a class instance among them into a
  // plain object and a function into null, without a word.
  let index = 0;
  if (object instanceof Map) {
    for (const [key, item] of object) {
      const inKey = find(key, seen);
      if (inKey) return via(inKey, ` key #${index}`);
      const inItem = find(item, seen);
      if (inItem) return via(inItem, `.get(${describeKey(key)})`);
      index += 1;
    }
  }
  if (object instanceof Set) {
    for (const member of object) {
      const inner = find(member, seen);
      if (inner) return via(inner, ` member #${index}`);
      index += 1;
    }
  }
  return undefined;
}

function describeKey(key: unknown): string {
  return typeof key === 'string' ? JSON.stringify(key) : typeof key === 'object' && key !== null ? '{…}' : String(key);
}
