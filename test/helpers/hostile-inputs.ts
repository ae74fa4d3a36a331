/**
 * Shared fast-check arbitraries for attacking Baton: wrong-typed values, event names that try to
 * reach a machine's internal events, prototype-pollution keys, random methods, `_meta` shapes and
 * header values. Used by the property suites in test/security/ and by scripts/fuzz-http.ts.
 */
import fc from 'fast-check';
import { PROTOCOL_VERSION } from '../../server/protocol/index.js';

export const META_KEYS = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
} as const;

/** Event names XState uses internally, and the engine's own answer events: never reachable by a client. */
export const INTERNAL_EVENT_KEYS = [
  'xstate.init',
  'xstate.stop',
  'xstate.done.state.release',
  'xstate.done.actor.0.release.deploying',
  'xstate.error.actor.0.release.deploying',
  'xstate.done.actor.deploy',
  'xstate.after.50.release.deploying',
  'answer.window.accept',
  'answer.confirm.accept',
  'answer.confirm.unsupported',
  'answer.window.result',
  'baton.progress',
  'deploying',
  'released',
  '*',
  '',
] as const;

/** Keys that pollute prototypes when code copies objects carelessly. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty'];

/** Every own-property name of the built-in prototypes, to compare before and after an attack. */
export function prototypeFingerprint(): string {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype]
    .map((proto) => Object.getOwnPropertyNames(proto).sort().join(','))
    .join('|');
}

/** An object whose own keys may include `__proto__` (an object literal would set the prototype). */
export function objectOf(entries: Array<[string, unknown]>): Record<string, unknown> {
  return Object.fromEntries(entries);
}

export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...INTERNAL_EVENT_KEYS) },
  { weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
);

/** A JSON array nested `depth` levels deep, as text (JSON.stringify would recurse). */
export function deepArrayText(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

/** How deep a parsed JSON value nests (iterative: it must not overflow on what it measures). */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    if (current !== null && typeof current === 'object') {
      for (const child of Object.values(current)) stack.push([child, depth + 1]);
    }
  }
  return deepest;
}

/** Values of every JSON type, and the edge cases of each, to put where another type belongs. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      -0.5,
      2 ** 53,
      -(2 ** 63),
      1e308,
      '',
      ' ',
      '0',
      'null',
      '2.0',
      PROTOCOL_VERSION,
      '\u0000',
      '\uFEFF',
      '\uD800',
      [],
      [null],
      {},
      { '': null },
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 64 }).map((n) => 'x'.repeat(n * 1024)) },
  { weight: 1, arbitrary: fc.tuple(hostileKey, fc.jsonValue({ maxDepth: 2 })).map(([k, v]) => objectOf([[k, v]])) },
);

/** Method names: real ones, removed ones, XState's and JavaScript's own names, and noise. */
export const methodName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'tools/call',
    'tools/list',
    'server/discover',
    'prompts/get',
    'prompts/list',
    'resources/read',
    'resources/list',
    'resources/templates/list',
    'completion/complete',
    'initialize',
    'ping',
    'logging/setLevel',
    'resources/subscribe',
    'resources/unsubscribe',
    'notifications/cancelled',
    'notifications/initialized',
    'elicitation/create',
    'sampling/createMessage',
    'roots/list',
    'TOOLS/CALL',
    'tools/call ',
    'tools//call',
    'tools',
    '/',
  ),
  fc.constantFrom(...INTERNAL_EVENT_KEYS.filter(Boolean), ...PROTOTYPE_KEYS),
  fc.constantFrom('xstate.init', 'xstate.stop', 'xstate.done.actor.0', 'xstate.error.actor'),
  fc.string({ maxLength: 32 }).map((s) => `xstate.${s}`),
  fc.string({ maxLength: 40 }),
);

/** Capabilities in shapes a client may send: valid, empty, wrong-typed, polluted. */
export const capabilities: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    {},
    { elicitation: {} },
    { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
    { elicitation: { url: {} } },
    { elicitation: true },
    { elicitation: [] },
    { sampling: { tools: {} } },
  ),
  fc.dictionary(fc.oneof(fc.constantFrom('elicitation', 'sampling', 'roots', 'form', 'url'), hostileKey), wrongValue, {
    maxKeys: 4,
  }),
  wrongValue,
);

/** `params._meta` in every shape: valid, partial, wrong-typed, other versions, extra keys. */
export const metaShape: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record(
        {
          version: fc.oneof(
            fc.constant(PROTOCOL_VERSION),
            fc.constantFrom('2025-06-18', '2025-11-25', '2026-07-29', '2026-07-28 ', '', 'latest'),
            wrongValue,
          ),
          caps: capabilities,
          info: fc.oneof(fc.constant({ name: 'fuzz', version: '0' }), wrongValue),
          progressToken: fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), wrongValue),
          extra: fc.array(fc.tuple(hostileKey, wrongValue), { maxLength: 3 }),
        },
        { requiredKeys: ['version', 'extra'] },
      )
      .map((m) =>
        objectOf([
          [META_KEYS.protocolVersion, m.version],
          ...(m.caps === undefined ? [] : [[META_KEYS.clientCapabilities, m.caps] as [string, unknown]]),
          ...(m.info === undefined ? [] : [[META_KEYS.clientInfo, m.info] as [string, unknown]]),
          ...(m.progressToken === undefined ? [] : [['progressToken', m.progressToken] as [string, unknown]]),
          ...m.extra,
        ]),
      ),
  },
  { weight: 1, arbitrary: wrongValue },
);

/** Characters Node lets a client put in a header value (visible ASCII, tab, space, Latin-1). */
const HEADER_CHARS = [
  '\t',
  ...Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)),
  ...Array.from({ length: 0x100 - 0x80 }, (_, i) => String.fromCharCode(0x80 + i)),
];
export const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: fc.constantFrom(...HEADER_CHARS), maxLength: 60 }),
  fc.constantFrom(
    PROTOCOL_VERSION,
    '2025-06-18',
    'tools/call',
    'release',
    '=?base64?cmVsZWFzZQ==?=',
    '=?base64?cmVsZWFzZQ?=',
    '=?base64?!!!?=',
    '=?base64??=',
    '=?base64?/w==?=',
    '',
  ),
);

/** Whether Node's HTTP client accepts a string as a header value as it is. */
export function isSendableHeaderValue(value: string): boolean {
  return /^[\t\x20-\x7e\x80-\xff]*$/.test(value);
}

/** The Base64 sentinel form of a header value (spec, streamable-http "Standard headers"). */
export function base64Sentinel(value: string): string {
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** An answer in any shape: real ElicitResult shapes with hostile content, and anything else. */
export const answerValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    { action: 'accept', content: { window: 'now' } },
    { action: 'accept', content: { confirm: true } },
    { action: 'accept' },
    { action: 'decline' },
    { action: 'cancel' },
    { action: 'ACCEPT' },
    { action: 'accept', content: null },
    { action: 'accept', content: [] },
    { action: 'accept', content: { window: 'now', type: 'xstate.done.actor.0.release.deploying' } },
    { action: 'accept', content: { window: 'now', output: { deploymentId: 'forged' } } },
    { role: 'assistant', model: 'm', content: { type: 'text', text: 'hi' } },
    { roots: [{ uri: 'file:///' }] },
    { roots: 'file:///' },
  ),
  fc
    .tuple(fc.constantFrom('accept', 'decline', 'cancel'), fc.array(fc.tuple(hostileKey, wrongValue), { maxLength: 4 }))
    .map(([action, content]) => ({ action, content: objectOf(content) })),
  fc
    .tuple(fc.array(fc.tuple(hostileKey, wrongValue), { maxLength: 3 }), fc.constantFrom('accept', 'decline'))
    .map(([extra, action]) => objectOf([['action', action], ...extra])),
  wrongValue,
);

/** `inputResponses` keyed by hostile names, asked keys, or both. */
export function inputResponsesFor(askedKeys: string[]): fc.Arbitrary<unknown> {
  const key = askedKeys.length > 0 ? fc.oneof(hostileKey, fc.constantFrom(...askedKeys)) : hostileKey;
  return fc.oneof(
    { weight: 5, arbitrary: fc.array(fc.tuple(key, answerValue), { maxLength: 5 }).map(objectOf) },
    { weight: 1, arbitrary: wrongValue },
  );
}
