/**
 * Micro-benchmarks of the engine's hot path, one step at a time, on a real middle round of the
 * three-question flow (resume after "window", answer "approver", pause at "confirm"). The steps
 * repeat the calls `server/engine/state/sealed-state.ts` and `flow/flow-engine.ts` make, with the same
 * libraries and the engine's own helpers, so a regression points at its step; the whole-round
 * rows (`openState`, `sealState`, `FlowEngine.run`, `dispatch`) show what the steps leave out.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import superjson from 'superjson';
import nacl from 'tweetnacl';
import { createActor, type AnyActor, type AnyMachineSnapshot } from 'xstate';
import { createServer } from '../../server/create-server.js';
import { ANONYMOUS } from '../../server/protocol/index.js';
import { interpretAnswer } from '../../server/engine/flow/answers.js';
import { canonicalJson, shortDigest } from '../../server/engine/state/canonical-digest.js';
import {
  Cancellation,
  FlowEngine,
  KeyRing,
  openState,
  sealState,
  silentLogger,
  type FlowOutcome,
} from '../../server/engine/index.js';
import { isJsonFaithful } from '../../server/engine/state/json-faithful.js';
import { JsonSchemaValidator } from '../../server/engine/json-schema-validator.js';
import { pendingQuestions, toInputRequest } from '../../server/engine/flow/pending-questions.js';
import { findUnserializable } from '../../server/engine/flow/serializable-context.js';
import { settle } from '../../server/engine/flow/settle.js';
import { threeQuestionFlow } from '../flows/bench-flows.js';
import { contentForSchema } from '../load/answer-from-schema.js';
import { requestBody } from '../load/mcp-exchange.js';
import { threeQuestionMachine, threeQuestionTool } from '../tools/index.js';
import { measureStep, type MeasureOptions, type StepSpec, type StepTiming } from './measure.js';

const MAX_LENGTH = 16 * 1024;

export interface MicroResult {
  /** The hot-path steps, in order: their sum is the modelled cost of a round's state handling. */
  steps: StepTiming[];
  /** Other engine work per round and whole-round references. */
  extras: StepTiming[];
  /** Length of the sealed state the steps open (characters). */
  stateLength: number;
}

function expectInputRequired(outcome: FlowOutcome): string {
  if (outcome.kind !== 'input_required') throw new Error(`expected input_required, got ${outcome.kind}`);
  return outcome.requestState;
}

export async function runEngineSteps(options: MeasureOptions): Promise<MicroResult> {
  const keyRing = new KeyRing([{ id: 'bench', secret: new Uint8Array(randomBytes(32)) }]);
  const engine = new FlowEngine({ keyRing, logger: silentLogger });
  const args = threeQuestionFlow.arguments as { service: string; version: string };
  const call = {
    flow: threeQuestionTool,
    arguments: args,
    principal: 'anonymous',
    clientCapabilities: { elicitation: {} },
  };
  const answer = (key: string, content: Record<string, unknown>) => ({ [key]: { action: 'accept', content } });
  const windowContent = contentForSchema(threeQuestionFlow.rounds[0]![0]!.schema);
  const approverContent = contentForSchema(threeQuestionFlow.rounds[1]![0]!.schema);

  // A real state after round 1 (asked "window") and after round 2 (answered, asks "approver").
  const first = expectInputRequired(await engine.run(call));
  const token = expectInputRequired(
    await engine.run({ ...call, requestState: first, inputResponses: answer('window', windowContent) }),
  );
  const approverResponses = answer('approver', approverContent);

  // The intermediate values of one round, computed once, as each step's fixed input.
  const [, kid, sealed] = token.split('.') as [string, string, string];
  const key = keyRing.find(kid)!;
  const bytes = Buffer.from(sealed, 'base64url');
  const plain = nacl.secretbox.open(bytes.subarray(24), bytes.subarray(0, 24), key.secret)!;
  // Flag bit 0: deflate-raw (states under 768 bytes, like this one, skip zlib); bit 1: plain JSON.
  const text = plain[0]! & 1 ? inflateRawSync(plain.subarray(1)).toString() : Buffer.from(plain.subarray(1)).toString();
  const decode = plain[0]! & 2 ? (t: string) => JSON.parse(t) as unknown : (t: string) => superjson.parse<unknown>(t);
  // What (de)compression costs on a state that needs it, measured on this text.
  const deflated = deflateRawSync(Buffer.from(text));
  const [claims, snapshot] = decode(text) as [unknown[], unknown];
  const event = { type: 'answer.approver.accept', content: approverContent } as const;
  const openedClaims = openState(token, keyRing, MAX_LENGTH)!.claims;
  const restore = () => createActor(threeQuestionMachine, { snapshot: snapshot as never, input: args });
  const started = () => {
    const actor = restore();
    actor.subscribe({ error: () => {} });
    actor.start();
    return actor;
  };
  const answered = () => {
    const actor = started();
    actor.send(event);
    return actor;
  };
  const persistOf = (actor: AnyActor) => {
    const { output: _o, error: _e, ...persisted } = actor.getPersistedSnapshot() as Record<string, unknown>;
    return persisted;
  };
  const nextPersisted = persistOf(answered());
  const encode = (value: unknown) =>
    isJsonFaithful(nextPersisted) ? JSON.stringify(value) : superjson.stringify(value);
  const nextText = encode([claims, nextPersisted]);
  const nextBody = Buffer.from(nextText);
  const nextPlain = new Uint8Array(nextBody.length + 1);
  nextPlain[0] = 0;
  nextPlain.set(nextBody, 1);
  const fresh = (count: number) => Array.from({ length: count }, () => (decode(text) as [unknown, unknown])[1]);
  const many = <T>(count: number, make: () => T) => Array.from({ length: count }, make);
  const none = () => undefined;

  const steps: StepSpec<any>[] = [
    {
      step: 'open',
      what: 'split token, base64url decode + canonical check, secretbox.open',
      prepare: none,
      run: () => {
        const [, k, s] = token.split('.') as [string, string, string];
        const b = Buffer.from(s, 'base64url');
        if (b.toString('base64url') !== s || !/^[A-Za-z0-9_-]+$/.test(s)) throw new Error('not canonical');
        return nacl.secretbox.open(b.subarray(24), b.subarray(0, 24), keyRing.find(k)!.secret);
      },
    },
    {
      step: 'decompress',
      what: 'inflateRawSync + toString (only states of 768 bytes and more; this one skips it)',
      prepare: none,
      run: () => inflateRawSync(deflated, { maxOutputLength: MAX_LENGTH * 64 }).toString(),
    },
    {
      step: 'parse',
      what: 'JSON.parse of [claims, snapshot] (superjson.parse when the flag says so)',
      prepare: none,
      run: () => decode(text),
    },
    {
      step: 'restore',
      what: 'createActor(machine, { snapshot, input })',
      prepare: fresh,
      run: (snapshots: unknown[], i) =>
        createActor(threeQuestionMachine, { snapshot: snapshots[i] as never, input: args }),
    },
    {
      step: 'start',
      what: 'actor.subscribe + actor.start() on the restored actor',
      prepare: (count) => many(count, restore),
      run: (actors: AnyActor[], i) => {
        actors[i]!.subscribe({ error: () => {} });
        actors[i]!.start();
      },
    },
    {
      step: 'send',
      what: 'actor.send(answer event)',
      prepare: (count) => many(count, started),
      run: (actors: AnyActor[], i) => actors[i]!.send(event),
    },
    {
      step: 'persist',
      what: 'getPersistedSnapshot() without output/error',
      prepare: (count) => many(count, answered),
      run: (actors: AnyActor[], i) => persistOf(actors[i]!),
    },
    {
      step: 'stringify',
      what: 'isJsonFaithful(snapshot), then JSON.stringify([claims, snapshot]) (else superjson)',
      prepare: none,
      run: () => encode([claims, nextPersisted]),
    },
    {
      step: 'compress',
      what: 'deflateRawSync (only states of 768 bytes and more; this one skips it)',
      prepare: none,
      run: () => deflateRawSync(Buffer.from(nextText)),
    },
    {
      step: 'seal',
      what: 'random nonce, secretbox, base64url',
      prepare: none,
      run: () => {
        const nonce = new Uint8Array(randomBytes(24));
        const box = nacl.secretbox(nextPlain, nonce, key.secret);
        return `b1.${key.id}.${Buffer.concat([nonce, box]).toString('base64url')}`;
      },
    },
  ];

  const validator = new JsonSchemaValidator();
  const startedActor = started();
  const waiting = () => startedActor.getSnapshot() as AnyMachineSnapshot;
  const validatorSchema = toInputRequest(pendingQuestions(waiting())[0]!.question, waiting().context).params!
    .requestedSchema;
  const server = createServer({ tools: [threeQuestionTool], keyRing, logger: silentLogger });
  const message = JSON.parse(
    requestBody(1, threeQuestionFlow, { requestState: token, inputResponses: approverResponses }).toString(),
  );
  const extras: StepSpec<any>[] = [
    {
      step: 'superjson stringify',
      what: 'the same snapshot through superjson, as a context with a Date would be',
      prepare: none,
      run: () => superjson.stringify([claims, nextPersisted]),
    },
    {
      step: 'answer mapping',
      what: 'pendingQuestions + toInputRequest + interpretAnswer (ajv) + can()',
      prepare: none,
      run: () => {
        const snap = waiting();
        const [pending] = pendingQuestions(snap);
        const schema = toInputRequest(pending!.question, snap.context).params!.requestedSchema as object;
        const outcome = interpretAnswer(pending!.question, schema, approverResponses.approver, validator);
        return 'event' in outcome && snap.can(outcome.event);
      },
    },
    {
      step: 'ask',
      what: 'pendingQuestions + toInputRequest for the next question',
      prepare: none,
      run: () => pendingQuestions(waiting()).map((p) => toInputRequest(p.question, waiting().context)),
    },
    {
      step: 'settle',
      what: 'settle() on an actor already waiting',
      prepare: none,
      run: () => settle(startedActor, 30_000),
    },
    {
      step: 'binding',
      what: 'digests of principal and canonical arguments',
      prepare: none,
      run: () => [shortDigest('principal\u0000anonymous'), shortDigest(canonicalJson(args))],
    },
    {
      step: 'context check',
      what: 'findUnserializable(context)',
      prepare: none,
      run: () => findUnserializable(nextPersisted.context),
    },
    {
      step: 'validator key',
      what: 'JSON.stringify(schema) (the ajv cache key)',
      prepare: none,
      run: () => JSON.stringify(validatorSchema),
    },
    {
      step: 'openState()',
      what: 'the engine function: open + decompress + parse',
      prepare: none,
      run: () => openState(token, keyRing, MAX_LENGTH),
    },
    {
      step: 'sealState()',
      what: 'the engine function: stringify + compress + seal',
      prepare: none,
      run: () =>
        sealState(
          { claims: openedClaims, snapshot: nextPersisted },
          { keyRing, randomBytes: (n) => new Uint8Array(randomBytes(n)) },
        ),
    },
    {
      step: 'FlowEngine.run',
      what: 'one whole middle round in the engine',
      prepare: none,
      run: () => engine.run({ ...call, requestState: token, inputResponses: approverResponses }),
    },
    {
      step: 'dispatch',
      what: 'the same round through the protocol layer (no HTTP)',
      prepare: none,
      run: () => server.dispatcher.dispatch(message, { principal: ANONYMOUS, cancellation: new Cancellation() }),
    },
  ];

  // The whole-round rows must time the round they claim to: a middle round that asks "confirm".
  const asksConfirm = (value: unknown) => JSON.stringify(value).includes('"inputRequests":{"confirm"');
  const round = await engine.run({ ...call, requestState: token, inputResponses: approverResponses });
  const dispatched = await server.dispatcher.dispatch(message, {
    principal: ANONYMOUS,
    cancellation: new Cancellation(),
  });
  if (!asksConfirm(round) || !asksConfirm(dispatched)) {
    throw new Error(`the micro-benchmark round does not ask "confirm": ${JSON.stringify(dispatched).slice(0, 300)}`);
  }

  const result: MicroResult = { steps: [], extras: [], stateLength: token.length };
  // Whole rounds first, untimed, for fifty batches' time: they run every step's code, and V8 keeps
  // compiling it on helper threads for a while, whose CPU time would land in whatever is timed then.
  const warmUntil = performance.now() + options.batchMs * 50;
  const wholeRounds = extras.filter((spec) => spec.step === 'FlowEngine.run' || spec.step === 'dispatch');
  while (performance.now() < warmUntil) {
    for (const spec of wholeRounds) for (let i = 0; i < 50; i++) await spec.run(undefined, i);
  }
  for (const spec of steps) result.steps.push(await measureStep(spec, options));
  for (const spec of extras) result.extras.push(await measureStep(spec, options));
  startedActor.stop();
  return result;
}
