/**
 * A state value as the list of its leaf paths (`{ review: 'legal' }` is `['review.legal']`), and
 * back: what a migration's state mapping reads and writes. XState writes an atomic state as a
 * string and a compound or parallel one as an object of its regions.
 */
import type { StateValue } from 'xstate';
import { isRecord } from '../plain-objects.js';

export function leafPaths(value: StateValue, prefix = ''): string[] {
  if (typeof value === 'string') return [prefix + value];
  const paths: string[] = [];
  for (const [key, inner] of Object.entries(value)) {
    // A region with no value of its own (`{}`) ends the path at its name.
    if (inner === undefined || (isRecord(inner) && Object.keys(inner).length === 0)) paths.push(prefix + key);
    else paths.push(...leafPaths(inner as StateValue, `${prefix}${key}.`));
  }
  return paths;
}

/**
 * The state value whose leaves are `paths`, or why none is: two paths that disagree on whether a
 * state is a leaf (`a` and `a.b`).
 */
export function valueOf(paths: readonly string[]): { value: StateValue } | { problem: string } {
  if (paths.length === 1 && !paths[0]!.includes('.')) return { value: paths[0]! };
  const root: Record<string, unknown> = {};
  for (const path of paths) {
    const steps = path.split('.');
    let node = root;
    for (let index = 0; index < steps.length - 1; index++) {
      const step = steps[index]!;
      const next = node[step];
      if (typeof next === 'string')
        return { problem: `"${path}" lies inside "${steps.slice(0, index + 1).join('.')}"` };
      if (next === undefined) node[step] = {};
      node = node[step] as Record<string, unknown>;
    }
    const leaf = steps.at(-1)!;
    if (node[leaf] !== undefined && typeof node[leaf] !== 'string') return { problem: `"${path}" is not a leaf` };
    node[leaf] = '';
  }
  return { value: collapse(root) as StateValue };
}

/** `{ a: { b: '' } }` as XState writes it: `{ a: 'b' }`; a region of several leaves stays an object. */
function collapse(node: Record<string, unknown>): unknown {
  const entries = Object.entries(node);
  if (entries.length === 1 && entries[0]![1] === '') return entries[0]![0];
  return Object.fromEntries(
    entries.map(([key, inner]) => [key, inner === '' ? {} : collapse(inner as Record<string, unknown>)]),
  );
}

/** Where `path` lands under `mapping`: the longest listed prefix wins, and what follows it is kept. */
export function mappedPath(path: string, mapping: Readonly<Record<string, string>>): string {
  let best: string | undefined;
  for (const from of Object.keys(mapping)) {
    if ((path === from || path.startsWith(`${from}.`)) && (best === undefined || from.length > best.length))
      best = from;
  }
  return best === undefined ? path : mapping[best]! + path.slice(best.length);
}
