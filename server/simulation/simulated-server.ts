/**
 * A server in process for one flow: the service every server runs (`createMcpService`: the same
 * catalogue checks, dispatcher, flow engine and, for a tool that may run as a task, task runtime),
 * and a `send` that speaks to it as a client declaring every capability would. The docs run their examples on it, the test kit its paths.
 *
 * It is deterministic so the committed pages do not churn: a fixed clock, counter-based
 * randomness and a throwaway all-zero key (these sealed states and tokens open nowhere else).
 * Task timers run on real time, so examples use short delays.
 */
import type { AnyActorLogic, AnyStateMachine } from 'xstate';
import {
  Cancellation,
  docsEffectProblems,
  KeyRing,
  MemoryTaskQueue,
  MemoryTaskStore,
  openState,
  silentLogger,
  TASKS_EXTENSION,
} from '../engine/index.js';
import { createMcpService } from '../create-mcp-service.js';
import { ANONYMOUS } from '../protocol/index.js';
import { requestEnvelope, type ClientIdentity } from './request-envelope.js';
import type { Send } from './round-exchange.js';
import type { WaitingIn } from './run-rounds.js';
import type { SimulatedFlow } from './simulated-flow.js';

const EXAMPLE_CAPABILITIES = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };
const EXAMPLE_CLOCK = Date.UTC(2026, 6, 28, 12, 0, 0);
const SIMULATION_KEY_ID = 'docs';
const STATE_LENGTH_LIMIT = 1 << 20;

export interface SimulatedServerOptions {
  /**
   * Actors provided over the tool's `exampleActors` (a test's stand-ins). With `allowEffects` the
   * run may invoke actors that have an effect (a test that means it); the docs never set it.
   */
  actors?: Record<string, AnyActorLogic> | undefined;
  allowEffects?: boolean;
  /** Cancels the request being dispatched (the server sees the client go away). */
  signal?: AbortSignal | undefined;
}

export interface SimulatedServer {
  send: Send;
  /** Where the machine waits: opened from the sealed state, or read from the task's record. */
  waitingIn: WaitingIn;
  close(): Promise<void>;
}

function counterBytes(): (length: number) => Uint8Array {
  let counter = 0;
  return (length) => Uint8Array.from({ length }, () => counter++ & 0xff);
}

/** The flow with the tool's `exampleActors` (and the options' actors) in place of its own. */
function withExampleActors(flow: SimulatedFlow, options: SimulatedServerOptions): SimulatedFlow {
  if (flow.kind !== 'tool') return flow;
  // The example runs for real: an effect without a stand-in would happen (a deploy from the docs).
  const problems = options.allowEffects ? [] : docsEffectProblems(flow.definition);
  if (problems.length > 0) throw new Error(problems.join('\n'));
  const actors = { ...flow.definition.exampleActors, ...options.actors };
  if (Object.keys(actors).length === 0) return flow;
  const machine = (flow.definition.machine as AnyStateMachine).provide({ actors });
  return { kind: 'tool', definition: { ...flow.definition, machine } };
}

function leafPaths(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return [`${prefix}${value}`];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => leafPaths(child, `${prefix}${key}.`));
}

export function startSimulatedServer(flow: SimulatedFlow, options: SimulatedServerOptions = {}): SimulatedServer {
  const subject = withExampleActors(flow, options);
  const keyRing = new KeyRing([{ id: SIMULATION_KEY_ID, secret: new Uint8Array(32) }]);
  const clock = () => EXAMPLE_CLOCK;
  // A tool that may run as a task is shown as a client of the tasks extension would see it.
  const taskStore =
    subject.kind === 'tool' && subject.definition.task !== undefined ? new MemoryTaskStore({ clock }) : undefined;
  // The service every server runs (createMcpService), on this deterministic key, clock and
  // randomness, with nothing logged or recorded and the 2025-11-25 layer left out.
  const service = createMcpService({
    tools: subject.kind === 'tool' ? [subject.definition] : [],
    prompts: subject.kind === 'prompt' ? [subject.definition] : [],
    resources: subject.kind === 'resource' ? [subject.definition] : [],
    keyRing,
    clock,
    randomBytes: counterBytes(),
    logger: silentLogger,
    telemetry: { off: true },
    legacy: false,
    ...(taskStore ? { tasks: { store: taskStore, queue: new MemoryTaskQueue() } } : {}),
  });
  const client: ClientIdentity = {
    capabilities: taskStore ? { ...EXAMPLE_CAPABILITIES, extensions: { [TASKS_EXTENSION]: {} } } : EXAMPLE_CAPABILITIES,
    info: { name: 'example-client', version: '1.0.0' },
  };
  let nextId = 1;
  const send: Send = async (method, params) => {
    const request = requestEnvelope(nextId++, method, params, client);
    const dispatched = await service.dispatcher.dispatch(request, {
      principal: ANONYMOUS,
      cancellation: options.signal ? Cancellation.following(options.signal) : new Cancellation(),
    });
    if (dispatched.type !== 'response') throw new Error(`the example of ${request.method} was cancelled`);
    return { request, response: dispatched.response };
  };
  const waitingIn: WaitingIn = async (at) => {
    if ('taskId' in at) return leafPaths((await taskStore?.get(at.taskId))?.snapshot?.value);
    const opened = openState(at.requestState, keyRing, STATE_LENGTH_LIMIT);
    return leafPaths((opened?.snapshot as { value?: unknown } | undefined)?.value);
  };
  return { send, waitingIn, close: () => service.close() };
}
