import { expect } from 'chai';
import fc from 'fast-check';
import nacl from 'tweetnacl';
import { deflateRawSync } from 'node:zlib';
import { assign, fromPromise, setup } from 'xstate';
import {
  askForm,
  defineTool,
  EngineError,
  FlowEngine,
  formContent,
  KeyRing,
  openState,
  silentLogger,
  ToolRegistry,
  type AnswerEvent,
  type FlowOutcome,
} from '../../server/engine/index.js';

/**
 * requestState is attacker-controlled (spec, MRTR "Security"). Whatever a client does to a real
 * sealed state (flip bits, cut, splice, swap the key id, re-spell the base64) it must never open,
 * never throw, and never reach the machine: the engine answers only EngineError 'invalid_state'.
 */

const MAX_LENGTH = 16 * 1024;
const NOW = Date.parse('2026-11-29T12:00:00Z');
const ARGS = { service: 'billing' };
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Deterministic secrets: failures reproduce from the fast-check seed alone. */
const secret = (fill: number) => new Uint8Array(32).fill(fill);
const ring = new KeyRing([
  { id: 'k1', secret: secret(1) },
  { id: 'k2', secret: secret(2) },
]);
/** Another deployment that happens to use the same key id with a different secret. */
const foreignRing = new KeyRing([{ id: 'k1', secret: secret(9) }]);

/** Every way the machine could run counts here; a refused state must leave it untouched. */
const runs = { contexts: 0, transitions: 0, entries: 0, effects: 0 };
const total = () => runs.contexts + runs.transitions + runs.entries + runs.effects;

const countedMachine = setup({
  types: {} as { context: { window: string | null }; input: typeof ARGS; events: AnswerEvent },
  actors: {
    deploy: fromPromise(async () => {
      runs.effects += 1;
      return 'deployed';
    }),
  },
  actions: {
    transition: () => {
      runs.transitions += 1;
    },
    entry: () => {
      runs.entries += 1;
    },
  },
}).createMachine({
  id: 'counted',
  initial: 'pickWindow',
  context: () => {
    runs.contexts += 1;
    return { window: null };
  },
  output: ({ event }) => event.output,
  states: {
    pickWindow: askForm({
      key: 'window',
      message: 'When?',
      schema: { type: 'object', properties: { window: { type: 'string' } }, required: ['window'] },
      onAccept: {
        target: 'confirm',
        actions: ['transition', assign({ window: ({ event }) => formContent<{ window: string }>(event).window })],
      },
      onDecline: { target: 'cancelled', actions: 'transition' },
    }),
    confirm: askForm({
      key: 'confirm',
      message: 'Deploy?',
      schema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
      onAccept: { target: 'deploying', actions: 'transition' },
      onDecline: { target: 'cancelled', actions: 'transition' },
    }),
    deploying: {
      entry: 'entry',
      invoke: { src: 'deploy', onDone: 'released', onError: 'released' },
    },
    released: { type: 'final', entry: 'entry', output: 'released' },
    cancelled: { type: 'final', entry: 'entry', output: 'cancelled' },
  },
});

const countedTool = defineTool({
  name: 'counted-release',
  description: 'A release whose every step is counted.',
  inputSchema: { type: 'object', properties: { service: { type: 'string' } }, required: ['service'] },
  machine: countedMachine,
  exampleArguments: ARGS,
});
// The same start-up checks a server runs: the fixture is a valid tool, not a lenient test double.
new ToolRegistry([countedTool]);

const engine = (keyRing: KeyRing) =>
  new FlowEngine({ keyRing, clock: () => NOW, logger: silentLogger, stateTtlSeconds: 3600 });
const ourEngine = engine(ring);

const ANSWERS = {
  window: { action: 'accept', content: { window: 'now' } },
  confirm: { action: 'accept', content: { confirm: true } },
};

async function round(flowEngine: FlowEngine, requestState?: string): Promise<FlowOutcome> {
  return flowEngine.run({
    flow: countedTool,
    arguments: ARGS,
    principal: 'alice',
    clientCapabilities: { elicitation: {} },
    ...(requestState === undefined ? {} : { requestState, inputResponses: ANSWERS }),
  });
}

function stateOf(outcome: FlowOutcome): string {
  if (outcome.kind !== 'input_required') throw new Error(`expected input_required, got ${JSON.stringify(outcome)}`);
  return outcome.requestState;
}

/** Real tokens: first-round and confirmation states, several nonces each, from two deployments. */
let tokens: string[] = [];
let foreignTokens: string[] = [];
let valid = new Set<string>();

interface Token {
  prefix: string;
  kid: string;
  bytes: Buffer;
}

function parts(token: string): Token {
  const [prefix, kid, sealed] = token.split('.') as [string, string, string];
  return { prefix, kid, bytes: Buffer.from(sealed, 'base64url') };
}

const join = (t: Token, encoded = t.bytes.toString('base64url')) => `${t.prefix}.${t.kid}.${encoded}`;
const at = (length: number, index: number) => (length === 0 ? 0 : index % length);

/** Arbitraries that build a hostile variant of a real token. */
function mutations(): fc.Arbitrary<unknown> {
  const token = fc.constantFrom(...tokens);
  const pair = fc.tuple(token, token).filter(([a, b]) => a !== b);
  const anyChar = fc.oneof(
    fc.constantFrom(...B64URL.split(''), '.', '=', '+', '/', ' ', '\n', '%', '\u0000', 'é', '\u{1F600}'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  );
  const byte = fc.integer({ min: 0, max: 255 });
  const bytesArb = fc.uint8Array({ minLength: 1, maxLength: 64 });

  const bitFlips = fc
    .tuple(token, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 7 })), { minLength: 1, maxLength: 8 }))
    .map(([t, flips]) => {
      const p = parts(t);
      const bytes = Buffer.from(p.bytes);
      for (const [i, bit] of flips) bytes[at(bytes.length, i)]! ^= 1 << bit;
      return join({ ...p, bytes });
    });
  const charFlip = fc.tuple(token, fc.nat(), anyChar).map(([t, i, c]) => {
    const k = at(t.length, i);
    return t.slice(0, k) + c + t.slice(k + 1);
  });
  const byteInsert = fc.tuple(token, fc.nat(), bytesArb).map(([t, i, extra]) => {
    const p = parts(t);
    const k = at(p.bytes.length + 1, i);
    return join({ ...p, bytes: Buffer.concat([p.bytes.subarray(0, k), extra, p.bytes.subarray(k)]) });
  });
  const byteDelete = fc.tuple(token, fc.nat(), fc.integer({ min: 1, max: 48 })).map(([t, i, n]) => {
    const p = parts(t);
    const k = at(p.bytes.length, i);
    return join({ ...p, bytes: Buffer.concat([p.bytes.subarray(0, k), p.bytes.subarray(k + n)]) });
  });
  const charInsert = fc
    .tuple(token, fc.nat(), fc.array(anyChar, { minLength: 1, maxLength: 4 }))
    .map(([t, i, cs]) => t.slice(0, at(t.length + 1, i)) + cs.join('') + t.slice(at(t.length + 1, i)));
  const charDelete = fc.tuple(token, fc.nat(), fc.integer({ min: 1, max: 8 })).map(([t, i, n]) => {
    const k = at(t.length, i);
    return t.slice(0, k) + t.slice(k + n);
  });
  const truncate = fc.oneof(
    fc.tuple(token, fc.nat()).map(([t, n]) => t.slice(0, at(t.length, n))),
    fc.tuple(token, fc.nat()).map(([t, n]) => {
      const p = parts(t);
      return join({ ...p, bytes: p.bytes.subarray(0, at(p.bytes.length, n)) });
    }),
    fc.tuple(token, fc.nat()).map(([t, n]) => {
      const p = parts(t);
      return join({ ...p, bytes: p.bytes.subarray(at(p.bytes.length, n) + 1) });
    }),
  );
  const extend = fc.oneof(
    fc.tuple(token, fc.array(anyChar, { minLength: 1, maxLength: 16 })).map(([t, cs]) => t + cs.join('')),
    fc.tuple(token, bytesArb).map(([t, extra]) => {
      const p = parts(t);
      return join({ ...p, bytes: Buffer.concat([p.bytes, extra]) });
    }),
    token.map((t) => `${t}.`),
    token.map((t) => `${t}.${t}`),
  );
  const splice = fc.oneof(
    fc.tuple(pair, fc.nat(), fc.nat()).map(([[a, b], i, j]) => a.slice(0, at(a.length, i)) + b.slice(at(b.length, j))),
    pair.map(([a, b]) => {
      const [pa, pb] = [parts(a), parts(b)];
      // A's nonce with B's box, and the halves of two ciphertexts.
      return join({ ...pa, bytes: Buffer.concat([pa.bytes.subarray(0, 24), pb.bytes.subarray(24)]) });
    }),
    fc.tuple(pair, fc.nat()).map(([[a, b], i]) => {
      const [pa, pb] = [parts(a), parts(b)];
      const k = at(Math.min(pa.bytes.length, pb.bytes.length), i);
      return join({ ...pa, bytes: Buffer.concat([pa.bytes.subarray(0, k), pb.bytes.subarray(k)]) });
    }),
    pair.map(([a, b]) => {
      const [pa, pb] = [parts(a), parts(b)];
      return join({ ...pa, bytes: Buffer.concat([pb.bytes.subarray(0, 24), pa.bytes.subarray(24)]) });
    }),
  );
  const kidSwap = fc
    .tuple(
      token,
      fc.oneof(
        fc.constantFrom('k2', 'K1', 'k1 ', ' k1', 'k', 'k11', '', '__proto__', 'constructor', 'toString', 'k1\u0000'),
        fc.string({ maxLength: 40 }),
        fc.stringMatching(/^[A-Za-z0-9_-]{1,32}$/),
      ),
    )
    .map(([t, kid]) => join({ ...parts(t), kid }));
  const prefixSwap = fc
    .tuple(token, fc.oneof(fc.constantFrom('b0', 'b2', 'B1', 'b1 ', '', 'b', 'b11', 'a1'), fc.string({ maxLength: 6 })))
    .map(([t, prefix]) => join({ ...parts(t), prefix }));
  const alphabet = fc.oneof(
    // Standard base64: `+` and `/` for `-` and `_`, with or without padding.
    token.map((t) => join(parts(t), parts(t).bytes.toString('base64'))),
    token.map((t) => join(parts(t), parts(t).bytes.toString('base64').replace(/=+$/, ''))),
    token.map((t) => t.replace(/-/g, '+').replace(/_/g, '/')),
    token.map((t) => `${t}=`),
    token.map((t) => `${t}==`),
    // Another encoding of the same bytes altogether.
    fc
      .tuple(token, fc.constantFrom<BufferEncoding>('hex', 'base64', 'latin1', 'utf8', 'ucs2'))
      .map(([t, encoding]) => join(parts(t), parts(t).bytes.toString(encoding))),
    // Case change of one letter, whitespace, percent-encoding.
    fc.tuple(token, fc.nat()).map(([t, i]) => {
      const k = at(t.length, i);
      const c = t[k]!;
      const swapped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
      return t.slice(0, k) + swapped + t.slice(k + 1);
    }),
    fc
      .tuple(token, fc.nat(), fc.constantFrom(' ', '\t', '\n', '\r\n'))
      .map(([t, i, ws]) => t.slice(0, at(t.length, i)) + ws + t.slice(at(t.length, i))),
    token.map((t) => encodeURIComponent(t).replace(/-/g, '%2D')),
    token.map((t) => ` ${t}`),
    token.map((t) => `${t}\n`),
    // The unused low bits of the last character: same bytes, non-canonical spelling.
    fc.tuple(token, fc.integer({ min: 1, max: 15 })).map(([t, delta]) => {
      const last = t[t.length - 1]!;
      return t.slice(0, -1) + B64URL[(B64URL.indexOf(last) ^ delta) & 63]!;
    }),
  );
  const foreign = fc.constantFrom(...foreignTokens);
  const forged = fc.oneof(
    fc
      .tuple(fc.constantFrom('k1', 'k2', 'zz'), fc.uint8Array({ minLength: 0, maxLength: 600 }))
      .map(([kid, bytes]) => `b1.${kid}.${Buffer.from(bytes).toString('base64url')}`),
    // A box that authenticates under a key we do not hold, filed under our key id.
    fc
      .tuple(fc.uint8Array({ minLength: 24, maxLength: 24 }), fc.uint8Array({ maxLength: 300 }), byte)
      .map(([nonce, plain, fill]) => {
        const box = nacl.secretbox(plain, nonce, secret(fill === 1 || fill === 2 ? 3 : fill));
        return `b1.k1.${Buffer.concat([nonce, box]).toString('base64url')}`;
      }),
  );
  const randomStrings = fc.oneof(
    fc.string({ maxLength: 400 }),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.string({ unit: 'grapheme', maxLength: 100 }),
    fc.stringMatching(/^b1\.k[12]\.[A-Za-z0-9_-]{0,300}$/),
    fc.stringMatching(/^[a-z0-9]{0,3}\.[^.]{0,8}\.[^.]{0,80}(\.[^.]{0,8})?$/),
    fc.constant('x'.repeat(MAX_LENGTH + 1)),
  );
  const randomValues = fc.oneof(fc.jsonValue(), fc.anything(), fc.constantFrom(null, 0, -1, NaN, true, [], {}));

  return fc.oneof(
    bitFlips,
    charFlip,
    byteInsert,
    byteDelete,
    charInsert,
    charDelete,
    truncate,
    extend,
    splice,
    kidSwap,
    prefixSwap,
    alphabet,
    foreign,
    forged,
    randomStrings,
    randomValues,
  );
}

describe('sealed requestState under random mutation (property)', function () {
  this.timeout(60_000);

  before(async () => {
    tokens = [];
    foreignTokens = [];
    for (let i = 0; i < 3; i += 1) {
      const first = stateOf(await round(ourEngine));
      const confirmation = stateOf(await round(ourEngine, first));
      tokens.push(first, confirmation);
      const foreignFirst = stateOf(await round(engine(foreignRing)));
      foreignTokens.push(foreignFirst, stateOf(await round(engine(foreignRing), foreignFirst)));
    }
    valid = new Set(tokens);
  });

  it('opens every real token unchanged (the control case)', () => {
    for (const token of tokens) expect(openState(token, ring, MAX_LENGTH)).not.to.equal(undefined);
    for (const token of foreignTokens) expect(openState(token, foreignRing, MAX_LENGTH)).not.to.equal(undefined);
  });

  it('never opens a mutated, spliced, re-encoded, forged or random token, and never throws', () => {
    fc.assert(
      fc.property(mutations(), (mutated) => {
        fc.pre(typeof mutated !== 'string' || !valid.has(mutated));
        let opened: unknown;
        expect(() => {
          opened = openState(mutated, ring, MAX_LENGTH);
        }).not.to.throw();
        expect(opened).to.equal(undefined);
      }),
      { numRuns: 6000 },
    );
  });

  it('never throws on authentic boxes with malformed contents (defence against our own bugs)', () => {
    const plaintext = fc.oneof(
      fc.uint8Array({ maxLength: 200 }),
      // Flag 0 or 1 followed by garbage, by deflate-raw of garbage, or by JSON that is not a state.
      fc.tuple(fc.constantFrom(0, 1, 2, 255), fc.uint8Array({ maxLength: 200 })).map(([flag, body]) => [flag, body]),
      fc
        .tuple(fc.constantFrom(0, 1), fc.jsonValue())
        .map(([flag, value]) => [flag, new Uint8Array(Buffer.from(JSON.stringify({ json: value })))]),
      fc
        .tuple(fc.constantFrom(0, 1), fc.string({ unit: 'binary', maxLength: 200 }))
        .map(([flag, text]) => [flag, new Uint8Array(Buffer.from(text))]),
    );
    fc.assert(
      fc.property(plaintext, fc.uint8Array({ minLength: 24, maxLength: 24 }), (input, nonce) => {
        let plain: Uint8Array;
        if (input instanceof Uint8Array) plain = input;
        else {
          const [flag, body] = input as [number, Uint8Array];
          const payload = flag === 1 ? deflateRawSync(body) : body;
          plain = new Uint8Array([flag, ...payload]);
        }
        const box = nacl.secretbox(plain, nonce, secret(1));
        const token = `b1.k1.${Buffer.concat([nonce, box]).toString('base64url')}`;
        let opened: ReturnType<typeof openState>;
        expect(() => {
          opened = openState(token, ring, MAX_LENGTH);
        }).not.to.throw();
        if (opened) {
          expect(opened.claims.principal).to.be.a('string');
          expect(opened.claims.asked).to.be.an('array');
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses an authentic deflate bomb without inflating it', () => {
    const bomb = deflateRawSync(Buffer.alloc(MAX_LENGTH * 128, 0x20));
    const nonce = new Uint8Array(24).fill(7);
    const box = nacl.secretbox(new Uint8Array([1, ...bomb]), nonce, secret(1));
    const token = `b1.k1.${Buffer.concat([nonce, box]).toString('base64url')}`;
    expect(token.length).to.be.below(MAX_LENGTH);
    expect(openState(token, ring, MAX_LENGTH)).to.equal(undefined);
  });

  it('runs the machine for a real token (the control case for the counters)', async () => {
    const before = total();
    const outcome = await round(ourEngine, tokens[1]);
    expect(outcome).to.deep.equal({ kind: 'complete', output: 'released' });
    expect(runs.effects).to.be.above(0);
    expect(total()).to.be.above(before);
  });

  it('answers every mutated state with EngineError invalid_state, whatever the answers, and runs nothing', async () => {
    const hostileKey = fc.oneof(
      fc.constantFrom(
        'window',
        'confirm',
        'xstate.init',
        'xstate.stop',
        'xstate.done.state.counted',
        'xstate.done.actor.0.counted.deploying',
        'xstate.error.actor.0.counted.deploying',
        'answer.window.accept',
        'answer.confirm.accept',
        '__proto__',
        'constructor',
        'prototype',
      ),
      fc.string({ maxLength: 30 }),
    );
    const answer = fc.oneof(
      fc.constantFrom(ANSWERS.window, ANSWERS.confirm, { action: 'decline' }, { action: 'cancel' }),
      fc.jsonValue(),
    );
    const responses = fc
      .array(fc.tuple(hostileKey, answer), { maxLength: 6 })
      .map((entries) => Object.fromEntries(entries) as Record<string, unknown>);
    await fc.assert(
      fc.asyncProperty(mutations(), responses, async (mutated, inputResponses) => {
        // No state at all starts a fresh flow, which is not an attack on a state.
        fc.pre(mutated !== undefined && (typeof mutated !== 'string' || !valid.has(mutated)));
        const before = { ...runs };
        let failure: unknown;
        let outcome: FlowOutcome | undefined;
        try {
          outcome = await ourEngine.run({
            flow: countedTool,
            arguments: ARGS,
            principal: 'alice',
            clientCapabilities: { elicitation: {} },
            requestState: mutated,
            inputResponses,
          });
        } catch (error) {
          failure = error;
        }
        expect(outcome, JSON.stringify(outcome)).to.equal(undefined);
        expect(failure).to.be.instanceOf(EngineError);
        expect((failure as EngineError).reason).to.equal('invalid_state');
        expect(runs).to.deep.equal(before);
      }),
      { numRuns: 3000 },
    );
  });
});
