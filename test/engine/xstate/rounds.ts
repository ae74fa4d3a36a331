/**
 * Runs one small machine per XState construct through real rounds: a FlowEngine with the sealed
 * state crossing a JSON round trip between rounds (fixtures/flow.ts), after the start-up checks
 * a served tool passes. Every suite of the matrix runs once per XState path (`onEachXStatePath`):
 * the lean actor a flow engine uses by default, and XState's own (engine/round/round-actor.ts).
 */
import { expect } from 'chai';
import { assign, createMachine, type AnyStateMachine } from 'xstate';
import {
  ConfigurationError,
  FlowEngine,
  ToolRegistry,
  askForm,
  defineTool,
  type FlowEngineOptions,
  type ToolDefinition,
  type XStatePath,
} from '../../../server/engine/index.js';
import { leanActorSupport } from '../../../server/engine/round/lean-path-check.js';
import { testKeyRing } from '../fixtures/keys.js';
import { Driver, expectAsked, expectComplete } from '../fixtures/flow.js';

/**
 * The two paths a round may run its machine on; the fidelity matrix passes on both. The CI job
 * that tries the newest XState (.ci/xstate-latest) sets BATON_TEST_XSTATE_PATHS=public when that
 * version is outside the lean path's window: the lean path then stands aside, and the public path
 * must still pass everything.
 */
export const XSTATE_PATHS: readonly XStatePath[] =
  process.env.BATON_TEST_XSTATE_PATHS === 'public' ? ['public'] : ['auto', 'public'];
let path: XStatePath = 'auto';

/** The path the suite running now is on: engines and servers of the matrix are made with it. */
export function currentXStatePath(): XStatePath {
  return path;
}

/** Registers `body` (a suite) once per XState path, each in a describe of its own. */
export function onEachXStatePath(title: string, body: () => void): void {
  for (const each of XSTATE_PATHS) {
    describe(`${title} (${each === 'auto' ? 'lean' : 'public'} path)`, () => {
      before(() => {
        path = each;
        // Were the XState installed to fail the check, 'auto' would quietly be the public path.
        if (each === 'auto') expect(leanActorSupport()).to.deep.equal({ ok: true });
      });
      after(() => {
        path = 'auto';
      });
      body();
    });
  }
}

export function toolOf(machine: object, extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return defineTool({
    name: 'construct',
    description: 'One XState construct under test',
    inputSchema: { type: 'object' },
    machine: machine as AnyStateMachine,
    ...extra,
  });
}

/** A driver for `machine`, which must pass the start-up checks. */
export function roundsOf(
  machine: object,
  options: Partial<FlowEngineOptions> = {},
  extra: Partial<ToolDefinition> = {},
): Driver {
  const tool = toolOf(machine, extra);
  new ToolRegistry([tool]);
  return new Driver(new FlowEngine({ keyRing: testKeyRing(), xstatePath: path, ...options }), tool, {});
}

/** The start-up problems of `machine` served as a tool (empty when it is accepted). */
export function startupProblems(machine: object, extra: Partial<ToolDefinition> = {}): string[] {
  try {
    new ToolRegistry([toolOf(machine, extra)]);
    return [];
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigurationError);
    return (error as Error).message.split('\n  - ').slice(1);
  }
}

/** A form question for one free-text field `text`; decline goes to `declined`. */
export function askText(key: string, onAccept: unknown, extra: Record<string, unknown> = {}) {
  return askForm({
    key,
    message: `Give ${key}`,
    schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    onAccept: onAccept as never,
    onDecline: 'declined',
    ...extra,
  });
}

export const text = (value: string) => ({ action: 'accept', content: { text: value } });

/** Asks, then answers each key in turn with a text answer; returns the flow's output. */
export async function answerInTurn(driver: Driver, keys: string[]): Promise<unknown> {
  let asked = await driver.ask();
  for (const [index, key] of keys.entries()) {
    expect(Object.keys(asked.inputRequests)).to.deep.equal([key]);
    const next = await driver.answer(asked, { [key]: text(key) });
    if (index === keys.length - 1) return expectComplete(next);
    asked = expectAsked(next);
  }
  return undefined;
}

/** A child machine that counts INC events, idle in between. */
export const counter = createMachine({
  id: 'counter',
  context: { n: 0 },
  on: { INC: { actions: assign({ n: ({ context }) => context.n + 1 }) } },
});

/** The count of the idle `counter` child `id` of an actor. */
export function countOf(self: { getSnapshot(): { children: Record<string, unknown> } }, id: string): number {
  const child = self.getSnapshot().children[id] as { getSnapshot(): { context: { n: number } } } | undefined;
  return child?.getSnapshot().context.n ?? -1;
}
