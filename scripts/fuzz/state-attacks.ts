/**
 * Attacks on flows in progress: forged and altered requestStates (including ones sealed under a
 * key with our key id that we do not hold), replays of real states (single-use included), answers
 * to questions that were not asked, and event names that try to reach a machine's internal events.
 * None of them may complete a release: that would be an effect reached by an attack.
 */
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { releaseTool } from '../../machines/examples/release.js';
import { FlowEngine, KeyRing } from '../../server/engine/index.js';
import {
  answerValue,
  hostileKey,
  INTERNAL_EVENT_KEYS,
  inputResponsesFor,
  objectOf,
  PROTOTYPE_KEYS,
} from '../../test/helpers/hostile-inputs.js';
import { message } from '../../test/helpers/hostile-messages.js';
import { mcpRequest, type Attack } from './attack.js';
import type { FuzzContext } from './fuzz-context.js';

export const RELEASE_ARGS = { service: 'billing', version: '2.4.0' };
const WINDOW_NOW = { action: 'accept', content: { window: 'now' } };
const CONFIRM = { action: 'accept', content: { confirm: true } };

interface LiveState {
  method: string;
  params: Record<string, unknown>;
  state: string;
  asked: string[];
}

/** A deterministic generator (mulberry32): the same seed sends the same attacks. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}

/** Starts each flow once, honestly, and keeps the states it hands out. */
async function liveStates(ctx: FuzzContext): Promise<LiveState[]> {
  const starts: Array<[string, Record<string, unknown>]> = [
    ['tools/call', { name: 'release', arguments: RELEASE_ARGS }],
    ['tools/call', { name: 'provision-database', arguments: { project: 'fuzz' } }],
    ['tools/call', { name: 'connect-payments', arguments: { provider: 'stripe' } }],
    ['tools/call', { name: 'test_input_required_result_multiple_inputs', arguments: {} }],
    ['tools/call', { name: 'test_input_required_result_sampling', arguments: {} }],
    ['prompts/get', { name: 'test_input_required_result_prompt', arguments: {} }],
  ];
  const states: LiveState[] = [];
  for (const [method, params] of starts) {
    const answer = await ctx.honest(method, params);
    if (answer?.result?.resultType === 'input_required') {
      states.push({
        method,
        params,
        state: answer.result.requestState,
        asked: Object.keys(answer.result.inputRequests),
      });
    }
  }
  return states;
}

/** A confirmation state of release: the next accepted answer would deploy. */
async function confirmationState(ctx: FuzzContext): Promise<string | undefined> {
  const first = await ctx.honest('tools/call', { name: 'release', arguments: RELEASE_ARGS });
  const second = await ctx.honest('tools/call', {
    name: 'release',
    arguments: RELEASE_ARGS,
    requestState: first?.result?.requestState,
    inputResponses: { window: WINDOW_NOW },
  });
  return second?.result?.requestState;
}

/** Real release states sealed under a key we do not hold, filed under the server's own key id. */
async function foreignStates(keyId: string): Promise<string[]> {
  const engine = new FlowEngine({ keyRing: new KeyRing([{ id: keyId, secret: new Uint8Array(randomBytes(32)) }]) });
  const call = {
    flow: releaseTool,
    arguments: RELEASE_ARGS,
    principal: 'anonymous',
    clientCapabilities: { elicitation: {} },
  };
  const first = await engine.run(call);
  if (first.kind !== 'input_required') return [];
  const second = await engine.run({
    ...call,
    requestState: first.requestState,
    inputResponses: { window: WINDOW_NOW },
  });
  return second.kind === 'input_required' ? [first.requestState, second.requestState] : [first.requestState];
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function mutate(
  token: string,
  other: string,
  r: ReturnType<typeof rng>,
  keyId: string,
): { how: string; value: unknown } {
  const at = r.int(token.length);
  const [prefix, kid, sealed = ''] = token.split('.');
  switch (r.int(12)) {
    case 0:
      return { how: 'one character changed', value: token.slice(0, at) + r.pick(B64.split('')) + token.slice(at + 1) };
    case 1:
      return { how: 'truncated', value: token.slice(0, at) };
    case 2:
      return { how: 'extended', value: token + r.pick(['A', 'AAAA', '.', '=', '==', '.x', ' ']) };
    case 3:
      return { how: 'spliced with another state', value: token.slice(0, at) + other.slice(at) };
    case 4:
      return {
        how: 'key id swapped',
        value: [prefix, r.pick([`${keyId}2`, 'dev', keyId.toUpperCase(), '', '__proto__']), sealed].join('.'),
      };
    case 5:
      return {
        how: 're-encoded as standard base64',
        value: `${prefix}.${kid}.${Buffer.from(sealed, 'base64url').toString('base64')}`,
      };
    case 6:
      return {
        how: 'random sealed bytes',
        value: `b1.${keyId}.${randomBytes(24 + 17 + r.int(400)).toString('base64url')}`,
      };
    case 7:
      return { how: 'version prefix changed', value: token.replace(/^b1/, r.pick(['b0', 'b2', 'B1', ''])) };
    case 8:
      return { how: 'not a string', value: r.pick([42, null, true, {}, [], [token], { requestState: token }]) };
    case 9:
      return {
        how: 'nonce of another state',
        value: `${prefix}.${kid}.${other.split('.')[2]!.slice(0, 32)}${sealed.slice(32)}`,
      };
    case 10:
      return { how: 'case flipped', value: r.chance(0.5) ? token.toUpperCase() : token.toLowerCase() };
    default:
      return { how: 'doubled', value: `${token}.${token}` };
  }
}

export async function forgedStates(ctx: FuzzContext, count: number): Promise<void> {
  const r = rng(ctx.seed);
  const states = await liveStates(ctx);
  const foreign = await foreignStates(ctx.keyId);
  const attacks: Attack[] = [];
  for (let i = 0; i < count; i += 1) {
    const base = r.pick(states);
    const useForeign = foreign.length > 0 && r.chance(0.15);
    const forged = useForeign
      ? { how: 'sealed under a key we do not hold, same key id', value: r.pick(foreign) }
      : mutate(base.state, r.pick(states).state, r, ctx.keyId);
    // Mostly presented where it came from (the strongest case), sometimes to another flow.
    const target = useForeign ? states[0]! : r.chance(0.8) ? base : r.pick(states);
    const answers = useForeign
      ? { window: WINDOW_NOW, confirm: CONFIRM }
      : objectOf(base.asked.map((k) => [k, WINDOW_NOW]));
    const params = { ...target.params, requestState: forged.value, inputResponses: answers };
    attacks.push({
      label: `${forged.how}, presented to ${String(target.params.name)}`,
      bytes: mcpRequest(ctx.port, JSON.stringify(message(target.method, params))),
      expectJson: true,
      noEffect: true,
    });
  }
  await ctx.sendAll(attacks);
}

/** Real states presented again and again, concurrently and after they were used. */
export async function replayedStates(ctx: FuzzContext, count: number): Promise<void> {
  const release = (round: Record<string, unknown>, args = RELEASE_ARGS) =>
    mcpRequest(ctx.port, JSON.stringify(message('tools/call', { name: 'release', arguments: args, ...round })));
  for (let sent = 0; sent < count;) {
    const first = (await ctx.send({ label: 'replay set: first call', bytes: release({}), expectJson: true })).message;
    const s1 = first?.result?.requestState;
    const second = await ctx.send({
      label: 'replay set: window answered',
      bytes: release({ requestState: s1, inputResponses: { window: WINDOW_NOW } }),
      expectJson: true,
    });
    const s2 = second.message?.result?.requestState;
    const confirm = { requestState: s2, inputResponses: { confirm: CONFIRM } };
    const concurrent = Array.from({ length: 6 }, () => ({
      label: 'confirmation state presented 6 times at once',
      bytes: release(confirm),
      expectJson: true,
    }));
    await Promise.all(concurrent.map((attack) => ctx.send(attack)));
    for (const [label, round, args] of [
      ['confirmation state presented again after it ran', confirm, RELEASE_ARGS],
      ['confirmation state presented a third time', confirm, RELEASE_ARGS],
      [
        'used confirmation state declined',
        { requestState: s2, inputResponses: { confirm: { action: 'decline' } } },
        RELEASE_ARGS,
      ],
      ['used confirmation state with other arguments', confirm, { service: 'other', version: '9.9.9' }],
    ] as const) {
      await ctx.send({ label, bytes: release(round, args), expectJson: true });
    }
    const again = { requestState: s1, inputResponses: { window: WINDOW_NOW } };
    await Promise.all(
      [0, 1].map(() =>
        ctx.send({ label: 'first state replayed twice at once', bytes: release(again), expectJson: true }),
      ),
    );
    sent += 14;
  }
}

export async function unaskedAnswers(ctx: FuzzContext, count: number): Promise<void> {
  const states = await liveStates(ctx);
  const release = states.find((s) => s.params.name === 'release')!;
  const fixed: Array<[string, LiveState | undefined, unknown]> = [
    ['confirm answered at the window question', release, { confirm: CONFIRM }],
    ['window and confirm answered together', release, { window: WINDOW_NOW, confirm: CONFIRM }],
    ['confirm answered ahead on a first call', undefined, { confirm: CONFIRM }],
    ['window and confirm answered ahead on a first call', undefined, { window: WINDOW_NOW, confirm: CONFIRM }],
  ];
  const random = fc.sample(
    fc
      .tuple(fc.constantFrom(...states), fc.boolean())
      .chain(([s, ahead]) =>
        fc.tuple(
          fc.constant(ahead ? undefined : s),
          inputResponsesFor([...s.asked, 'confirm', 'window']),
          fc.constant(s),
        ),
      ),
    { numRuns: Math.max(0, count - fixed.length), seed: ctx.seed },
  );
  const attacks = [
    ...fixed.map(([label, state, responses]) => ({ label, state, responses, flow: release })),
    ...random.map(([state, responses, flow]) => ({
      label: `random answers to ${String(flow.params.name)}`,
      state,
      responses,
      flow,
    })),
  ].slice(0, count);
  await ctx.sendAll(
    attacks.map(({ label, state, responses, flow }) => ({
      label,
      bytes: mcpRequest(
        ctx.port,
        JSON.stringify(
          message(flow.method, {
            ...flow.params,
            ...(state ? { requestState: state.state } : {}),
            inputResponses: responses,
          }),
        ),
      ),
      expectJson: true,
      noEffect: true,
    })),
  );
}

export async function internalEvents(ctx: FuzzContext, count: number): Promise<void> {
  const internalKey = fc.oneof(fc.constantFrom(...INTERNAL_EVENT_KEYS, ...PROTOTYPE_KEYS), hostileKey);
  const eventLike = fc.array(fc.tuple(internalKey, answerValue), { minLength: 1, maxLength: 6 });
  const contentLike = fc
    .array(fc.tuple(fc.constantFrom('type', 'output', 'event', 'content', '__proto__', 'xstate.init'), answerValue), {
      maxLength: 4,
    })
    .map((extra) => ({ action: 'accept', content: objectOf([['window', 'now'], ['confirm', true], ...extra]) }));
  const samples = fc.sample(fc.tuple(eventLike, contentLike, fc.nat(3)), { numRuns: count, seed: ctx.seed });
  const first = await ctx.honest('tools/call', { name: 'release', arguments: RELEASE_ARGS });
  const s1 = first?.result?.requestState as string;
  const attacks: Attack[] = [];
  for (const [entries, content, shape] of samples) {
    let params: Record<string, unknown>;
    let label: string;
    if (shape === 0) {
      // At the confirmation, where one wrong event would deploy: a fresh state each time.
      const s2 = await confirmationState(ctx);
      params = { requestState: s2, inputResponses: objectOf(entries.filter(([k]) => k !== 'confirm')) };
      label = 'internal event names as answers at the confirmation';
    } else if (shape === 1) {
      params = { requestState: s1, inputResponses: objectOf(entries) };
      label = 'internal event names as answers at the window question';
    } else if (shape === 2) {
      params = { requestState: s1, inputResponses: { window: content } };
      label = 'event-shaped fields in the form content';
    } else {
      params = { inputResponses: objectOf(entries) };
      label = 'internal event names answered ahead on a first call';
    }
    attacks.push({
      label,
      bytes: mcpRequest(
        ctx.port,
        JSON.stringify(message('tools/call', { name: 'release', arguments: RELEASE_ARGS, ...params })),
      ),
      expectJson: true,
      noEffect: true,
    });
  }
  await ctx.sendAll(attacks);
}
