/**
 * ship-release: a release that takes hours, run as a task (the tasks extension, docs/tasks.md).
 *
 *   building (invoked work, progress) -> awaitingApproval (a question inside the task)
 *     -> baking (a durable `after` timer) -> promoting (an invoked effect) -> shipped
 *
 * The task starts where the build starts, at the first call: `tasks/get` shows its progress in
 * `statusMessage`, then the approval question, which `tasks/update` answers. The bake timer is
 * durable: it fires whichever instance is alive. Promotion is the one effect that must not run
 * twice, so it takes the idempotency key Baton derives from the task and the state: a step re-run
 * on another instance after a crash presents the same key, and the promotion API drops the repeat.
 * `tasks/cancel` stops it at any point before promotion; nothing is promoted then.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { assign, fromCallback, fromPromise } from 'xstate';
import { idempotencyKey, reportProgress, toolSetup } from '../../server/engine/index.js';

interface ShipReleaseContext {
  service: string;
  version: string;
  bakeSeconds: number;
  artifact: string | null;
  approvedBy: string | null;
  promotion: string | null;
}

type BuildEvent =
  { type: 'build.progress'; step: number; of: number; what: string } | { type: 'build.done'; artifact: string };

const BUILD_STEPS = ['fetch sources', 'compile', 'test', 'package'];

/**
 * Stands in for a CI build: a few steps, each reported back to the machine, cancelled cleanly
 * when the machine stops it (the cleanup function clears the timer).
 */
export const simulatedBuild = fromCallback<BuildEvent, { service: string; version: string; stepMs: number }>(
  ({ input, sendBack }) => {
    let step = 0;
    const timer = setInterval(() => {
      step += 1;
      sendBack({ type: 'build.progress', step, of: BUILD_STEPS.length, what: BUILD_STEPS[step - 1]! });
      if (step === BUILD_STEPS.length) {
        clearInterval(timer);
        sendBack({ type: 'build.done', artifact: `${input.service}-${input.version}.tar.gz` });
      }
    }, input.stepMs);
    return () => clearInterval(timer);
  },
);

/**
 * Stands in for a promotion API that honours an idempotency key: with `BATON_DEPLOY_JOURNAL`
 * set, each promotion appends `promote <key> <pid>` unless its key is already there, so a test
 * (or an operator) can count promotions across every instance of a fleet.
 */
export const simulatedPromote = fromPromise<{ promotion: string }, { artifact: string }>(
  async ({ input, self, system, signal }) => {
    const key = idempotencyKey({ self, system });
    const journal = process.env.BATON_DEPLOY_JOURNAL;
    if (journal && !(existsSync(journal) && readFileSync(journal, 'utf8').includes(`promote ${key} `))) {
      appendFileSync(journal, `promote ${key} ${process.pid}\n`);
    }
    // Rejects with an AbortError when the task is cancelled.
    await delay(20, undefined, { signal });
    return { promotion: `${input.artifact} promoted (${key})` };
  },
);

const ship = toolSetup({
  inputSchema: {
    type: 'object',
    properties: {
      service: { type: 'string', minLength: 1, description: 'Service to release' },
      version: { type: 'string', minLength: 1, description: 'Version to ship' },
      bakeSeconds: {
        type: 'integer',
        minimum: 1,
        maximum: 7 * 24 * 3600,
        description: 'How long to bake in the canary before promotion (default 1800)',
      },
    },
    required: ['service', 'version'],
    additionalProperties: false,
  },
  questions: {
    approve: {
      kind: 'form',
      message: ({ context }) =>
        `${context.artifact} is built. Ship it to the canary, bake for ${context.bakeSeconds} s, then promote?`,
      schema: {
        type: 'object',
        properties: {
          approve: { type: 'boolean', title: 'Approve the release' },
          approver: { type: 'string', title: 'Your name', maxLength: 100 },
        },
        required: ['approve'],
      },
    },
  },
  // The build reports back with events of its own, besides the answers.
  types: {} as { context: ShipReleaseContext; events: BuildEvent },
  actors: { build: simulatedBuild, promote: simulatedPromote },
  delays: { bakeTime: ({ context }) => context.bakeSeconds * 1000 },
  guards: { approved: ({ event }) => event.type === 'answer.approve.accept' && event.content.approve },
});

export const shipReleaseMachine = ship.createMachine({
  id: 'shipRelease',
  initial: 'building',
  context: ({ input }) => ({
    service: input.service,
    version: input.version,
    bakeSeconds: input.bakeSeconds ?? 1800,
    artifact: null,
    approvedBy: null,
    promotion: null,
  }),
  states: {
    building: {
      invoke: {
        src: 'build',
        input: ({ context }) => ({ service: context.service, version: context.version, stepMs: 300 }),
      },
      on: {
        'build.progress': {
          actions: reportProgress<ShipReleaseContext, Extract<BuildEvent, { type: 'build.progress' }>>(({ event }) => ({
            progress: event.step,
            total: event.of + 2,
            message: `Building: ${event.what} (${event.step} of ${event.of})`,
          })),
        },
        'build.done': {
          target: 'awaitingApproval',
          actions: assign({ artifact: ({ event }) => event.artifact }),
        },
      },
    },
    awaitingApproval: {
      tags: ['baton.input'],
      meta: { 'baton.input': { key: 'approve' } },
      on: {
        'answer.approve.accept': [
          {
            guard: 'approved',
            target: 'baking',
            actions: assign({
              approvedBy: ({ event }) => event.content.approver ?? 'anonymous',
            }),
          },
          { target: 'rejected' },
        ],
        'answer.approve.decline': 'rejected',
        'answer.approve.cancel': 'rejected',
      },
    },
    baking: {
      entry: reportProgress<ShipReleaseContext>(({ context }) => ({
        progress: 5,
        total: 6,
        message: `Baking in the canary for ${context.bakeSeconds} s`,
      })),
      // A durable timer: it survives the instance that set it.
      after: { bakeTime: 'promoting' },
    },
    promoting: {
      invoke: {
        src: 'promote',
        input: ({ context }) => ({ artifact: context.artifact! }),
        onDone: { target: 'shipped', actions: assign({ promotion: ({ event }) => event.output.promotion }) },
        onError: 'failed',
      },
    },
    shipped: {
      type: 'final',
      output: ({ context }) => ({
        shipped: true,
        service: context.service,
        version: context.version,
        artifact: context.artifact,
        approvedBy: context.approvedBy,
        promotion: context.promotion,
      }),
    },
    rejected: {
      type: 'final',
      output: ({ context }) => `${context.service} ${context.version} was not approved: nothing was promoted.`,
    },
    failed: {
      type: 'final',
      output: ({ context }) => ({
        content: [{ type: 'text', text: `Promotion of ${context.service} ${context.version} failed.` }],
        isError: true,
      }),
    },
  },
});

// #region task-tool
export const shipReleaseTool = ship.defineTool({
  name: 'ship-release',
  title: 'Ship a release (long-running)',
  description:
    'Builds a service version, asks for approval, bakes it in the canary for a while, then promotes it. Runs as a task: poll it with tasks/get, answer the approval with tasks/update, stop it with tasks/cancel.',
  annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: true },
  machine: shipReleaseMachine,
  task: 'required',
  // #endregion task-tool
  exampleArguments: { service: 'billing', version: '2.5.0', bakeSeconds: 1 },
  // The build is simulated and touches nothing; the docs' example never promotes for real.
  safeActors: ['build'],
  exampleActors: {
    promote: fromPromise<{ promotion: string }, { artifact: string }>(async ({ input, self, system }) => ({
      promotion: `${input.artifact} promoted (${idempotencyKey({ self, system })})`,
    })),
  },
  exampleAnswers: { approve: { action: 'accept', content: { approve: true, approver: 'ada' } } },
});
