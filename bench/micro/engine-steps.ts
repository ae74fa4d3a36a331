/**
 * Micro-benchmarks of the engine's hot path, one step at a time, on a real middle round of the
 * three-question flow (resume after "window", answer "approver", pause at "confirm"). The steps
 * (round-steps.ts) repeat the calls `server/engine/state/sealed-state.ts` and `flow/flow-engine.ts`
 * make, with the same libraries and the engine's own helpers, so a regression points at its step; the whole-round
 * rows (`openState`, `sealState`, `FlowEngine.run`, `dispatch`) show what the steps leave out.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import superjson from 'superjson';
import type { AnyMachineSnapshot } from 'xstate';
import { createServer } from '../../server/create-server.js';
import { ANONYMOUS } from '../../server/protocol/index.js';
import { Cancellation, FlowEngine, KeyRing, openState, sealState, silentLogger } from '../../server/engine/index.js';
import { pendingQuestions, toInputRequest } from '../../server/engine/round/pending-questions.js';
import { findUnserializable } from '../../server/engine/round/serializable-context.js';
import { settle } from '../../server/engine/round/settle.js';
import { threeQuestionFlow } from '../flows/bench-flows.js';
import { requestBody } from '../load/mcp-exchange.js';
import { threeQuestionTool } from '../tools/index.js';
import type { FlowStepsTiming } from './flow-round-steps.js';
import { walkFlow } from './flow-round-walk.js';
import { measureStep, type MeasureOptions, type StepSpec, type StepTiming } from './measure.js';
import { RoundSteps } from './round-steps.js';

const MAX_LENGTH = 16 * 1024;

export interface MicroResult {
  /** The hot-path steps, in order: their sum is the modelled cost of a round's state handling. */
  steps: StepTiming[];
  /** Other engine work per round and whole-round references. */
  extras: StepTiming[];
  /** Length of the sealed state the steps open (characters). */
  stateLength: number;
  /**
   * Every bench flow's unavoidable steps, round by round (flow-round-steps.ts); absent in runs
   * saved before they were measured.
   */
  flows?: FlowStepsTiming[];
  /** The V8 settings their process ran with; absent in runs saved before it was started with any. */
  v8Settings?: string[];
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
  // The real third request: it opens the state sealed after "window", answers "approver" and
  // seals the state that asks "confirm".
  const played = (await walkFlow(threeQuestionFlow, engine, keyRing)).find((r) => r.number === 3)!;
  const round = new RoundSteps(played);
  const token = played.token!;
  const approverResponses = { approver: played.answers[0]!.response };

  // What (de)compression costs on a state that needs it, measured on this round's texts.
  const text = round.openedText;
  const deflated = deflateRawSync(Buffer.from(text));
  const { claims, persisted: nextPersisted, plain: nextPlain } = round.next;
  const nextText = Buffer.from(nextPlain.subarray(1)).toString();
  const openedClaims = openState(token, keyRing, MAX_LENGTH)!.claims;
  const none = () => undefined;
  // The round's own step names, without the answer's key: the bar and the report look them up.
  const plain = <T>(spec: StepSpec<T>, step: string): StepSpec<T> => ({ ...spec, step });

  const steps: StepSpec<any>[] = [
    round.open(),
    {
      step: 'decompress',
      what: 'inflateRawSync + toString (only states of 768 bytes and more; this one skips it)',
      prepare: none,
      run: () => inflateRawSync(deflated, { maxOutputLength: MAX_LENGTH * 64 }).toString(),
    },
    round.parse(),
    round.restore(),
    round.start(),
    plain(round.send(0), 'send'),
    round.persist(),
    round.stringify(),
    {
      step: 'compress',
      what: 'deflateRawSync (only states of 768 bytes and more; this one skips it)',
      prepare: none,
      run: () => deflateRawSync(Buffer.from(nextText)),
    },
    round.seal(),
  ];

  const startedActor = round.startedActor();
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
    plain(round.answerMapping(0), 'answer mapping'),
    round.ask(),
    {
      step: 'settle',
      what: 'settle() on an actor already waiting',
      prepare: none,
      run: () => settle(startedActor, 30_000),
    },
    round.binding(),
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
  const whole = await engine.run({ ...call, requestState: token, inputResponses: approverResponses });
  const dispatched = await server.dispatcher.dispatch(message, {
    principal: ANONYMOUS,
    cancellation: new Cancellation(),
  });
  if (!asksConfirm(whole) || !asksConfirm(dispatched)) {
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
