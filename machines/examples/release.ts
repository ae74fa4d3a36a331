/**
 * release: ship a service version in three steps.
 *
 *   pickWindow (form) -> confirm (form, boolean) -> deploying (invoked promise) -> released
 *
 * Declining or cancelling either question ends in `cancelled` with a clean result that says
 * nothing was deployed. The confirmation is single-use: presenting its sealed state again (a
 * client retrying after a dropped connection) returns the first run's result and never deploys
 * twice. The deployment itself is the `deploy` actor; tests and real deployments
 * swap it with `releaseMachine.provide({ actors: { deploy } })`.
 */
import { appendFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { assign, fromPromise } from 'xstate';
import { toolSetup } from '../../server/engine/index.js';

export interface DeployInput {
  service: string;
  version: string;
  window: string;
}

/**
 * Stands in for a real deployment API: takes a moment and honours cancellation. With
 * `BATON_DEPLOY_JOURNAL=<file>` it also appends one line per deployment it starts (the id and the
 * process), so an operator or a test can count effects across every instance of a fleet: each
 * line is one `O_APPEND` write, which processes sharing the file cannot interleave.
 */
export const simulatedDeploy = fromPromise<{ deploymentId: string }, DeployInput>(async ({ input, signal }) => {
  const deploymentId = deploymentIdOf(input);
  const journal = process.env.BATON_DEPLOY_JOURNAL;
  if (journal) appendFileSync(journal, `${deploymentId} ${process.pid}\n`);
  // Rejects with an AbortError when the round is cancelled.
  await delay(15, undefined, { signal });
  return { deploymentId };
});

function deploymentIdOf(input: DeployInput): string {
  return `${input.service}@${input.version}#${input.window}`;
}

/** What the docs' example runs instead of a deployment: the same answer, and no effect. */
const exampleDeploy = fromPromise<{ deploymentId: string }, DeployInput>(async ({ input }) => ({
  deploymentId: deploymentIdOf(input),
}));

const release = toolSetup({
  inputSchema: {
    type: 'object',
    properties: {
      service: { type: 'string', minLength: 1, description: 'Service to release' },
      version: { type: 'string', minLength: 1, description: 'Version to deploy' },
    },
    required: ['service', 'version'],
    additionalProperties: false,
  },
  questions: {
    window: {
      kind: 'form',
      message: ({ context }) => `When should ${context.service} ${context.version} go out?`,
      schema: {
        type: 'object',
        properties: { window: { type: 'string', title: 'Release window', enum: ['now', 'tonight', 'weekend'] } },
        required: ['window'],
      },
    },
    confirm: {
      kind: 'form',
      message: ({ context }) => `Deploy ${context.service} ${context.version} (${context.window})?`,
      schema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', title: 'Deploy now' } },
        required: ['confirm'],
      },
    },
  },
  types: {} as {
    context: { service: string; version: string; window: string | null; deploymentId: string | null };
  },
  actors: { deploy: simulatedDeploy },
  guards: {
    confirmed: ({ event }) => event.type === 'answer.confirm.accept' && event.content.confirm,
  },
});

// The tool result is the output of whichever final state the flow ends in.
export const releaseMachine = release.createMachine({
  id: 'release',
  initial: 'pickWindow',
  context: ({ input }) => ({ ...input, window: null, deploymentId: null }),
  states: {
    pickWindow: {
      tags: ['baton.input'],
      meta: { 'baton.input': { key: 'window' } },
      on: {
        'answer.window.accept': {
          target: 'confirm',
          actions: assign({ window: ({ event }) => event.content.window }),
        },
        'answer.window.decline': 'cancelled',
        'answer.window.cancel': 'cancelled',
      },
    },
    confirm: {
      // Confirming deploys: a resent confirmation must never deploy twice (baton.singleUse).
      tags: ['baton.input', 'baton.singleUse'],
      meta: { 'baton.input': { key: 'confirm' } },
      on: {
        'answer.confirm.accept': [{ guard: 'confirmed', target: 'deploying' }, { target: 'cancelled' }],
        'answer.confirm.decline': 'cancelled',
        'answer.confirm.cancel': 'cancelled',
      },
    },
    deploying: {
      invoke: {
        src: 'deploy',
        input: ({ context }) => ({ service: context.service, version: context.version, window: context.window! }),
        onDone: {
          target: 'released',
          actions: assign({ deploymentId: ({ event }) => event.output.deploymentId }),
        },
        onError: 'failed',
      },
    },
    released: {
      type: 'final',
      output: ({ context }) => ({
        released: true,
        service: context.service,
        version: context.version,
        window: context.window,
        deploymentId: context.deploymentId,
      }),
    },
    cancelled: {
      type: 'final',
      output: ({ context }) => `Release of ${context.service} ${context.version} cancelled: nothing was deployed.`,
    },
    failed: {
      type: 'final',
      output: ({ context }) => ({
        content: [{ type: 'text', text: `Deployment of ${context.service} ${context.version} failed.` }],
        isError: true,
      }),
    },
  },
});

export const releaseTool = release.defineTool({
  name: 'release',
  title: 'Release a service',
  description:
    'Deploy a version of a service: asks for a release window, asks for confirmation, then deploys. Declining at any step deploys nothing.',
  annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: true },
  machine: releaseMachine,
  exampleArguments: { service: 'billing', version: '2.4.0' },
  // Reading the docs must never deploy.
  exampleActors: { deploy: exampleDeploy },
});
