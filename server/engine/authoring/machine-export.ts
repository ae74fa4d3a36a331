/**
 * A machine as XState JSON: the config a visual statechart editor (Stately's) imports and
 * exports, questions included as data (`tags: ["baton.input"]`, the question whole in
 * `meta["baton.input"]`). What `baton export TOOL --json` writes.
 *
 * JSON holds no code, so:
 * - a function where XState takes one (context, output, an invoked actor's input, a delay) is
 *   left out: the tool's code supplies it, as `collect-feedback.ts` does for its JSON;
 * - an inline guard or action becomes the string `"(inline)"`, and an XState action creator
 *   (`assign`, `emit`, …) its type (`{ "type": "xstate.assign" }`), so the editor still draws that
 *   the transition is guarded or acts;
 * - a question field computed from the context (a message, a URL) is left out and named in the
 *   question's `computed` list, so the reader knows the question says more when it runs.
 * A machine kept as JSON exports as the JSON it was built from.
 */
import type { AnyStateMachine } from 'xstate';
import { INPUT_META } from './input-states.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Keys whose function value is an implementation named inline; any other function is left out. */
const INLINE = new Set(['guard', 'actions', 'entry', 'exit']);

function exported(value: unknown, key: string): Json | undefined {
  if (typeof value === 'function') {
    const type = (value as { type?: unknown }).type;
    if (typeof type === 'string' && !type.startsWith('xstate.guard')) return { type };
    return INLINE.has(key) ? '(inline)' : undefined;
  }
  if (Array.isArray(value)) {
    return value.map((item) => exported(item, key)).filter((item): item is Json => item !== undefined);
  }
  if (value !== null && typeof value === 'object') {
    const object: { [key: string]: Json } = {};
    for (const [name, child] of Object.entries(value)) {
      const json = name === INPUT_META && key === 'meta' ? question(child) : exported(child, name);
      if (json !== undefined) object[name] = json;
    }
    return object;
  }
  if (value === undefined || typeof value === 'bigint' || typeof value === 'symbol') return undefined;
  return value as Json;
}

function question(value: unknown): Json | undefined {
  if (value === null || typeof value !== 'object') return exported(value, INPUT_META);
  const json: { [key: string]: Json } = {};
  const computed: string[] = [];
  for (const [name, field] of Object.entries(value)) {
    if (typeof field === 'function') computed.push(name);
    else if (field !== undefined) json[name] = exported(field, name)!;
  }
  if (computed.length > 0) json.computed = computed;
  return json;
}

/** The machine's config as XState JSON (an object; `JSON.stringify` it to write it). */
export function machineToJson(machine: AnyStateMachine): { [key: string]: Json } {
  return exported(machine.config, '') as { [key: string]: Json };
}
