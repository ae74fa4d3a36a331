/**
 * release: ship a service version in three steps, four for a breaking release.
 *
 *   pickWindow (form) -> [breaking] changelog (form) -> confirm (form, boolean)
 *     -> deploying (invoked promise) -> released
 *
 * Declining or cancelling any question ends in `cancelled` with a clean result that says
 * nothing was deployed. The confirmation is single-use: presenting its sealed state again (a
 * client retrying after a dropped connection) returns the first run's result and never deploys
 * twice. The deployment itself is the `deploy` actor; tests and real deployments
 * swap it with `releaseMachine.provide({ actors: { deploy } })`.
 *
 * This is version 2: the changelog question is new. Version 1 (release.v1.ts) is kept beside it
 * (`versions`), so a flow version 1 started before the deploy finishes on version 1, asking what
 * version 1 asks next, instead of starting over (docs/deploy.md).
 */
import { assign } from 'xstate';
import { toolSetup } from '../../server/engine/index.js';
import { exampleDeploy, simulatedDeploy } from './release-deploy.js';
// #region kept-version-import
import { releaseV1Machine } from './release.v1.js';
// #endregion kept-version-import

export { simulatedDeploy, type DeployInput } from './release-deploy.js';

const release = toolSetup({
  inputSchema: {
    type: 'object',
    properties: {
      service: { type: 'string', minLength: 1, description: 'Service to release' },
      version: { type: 'string', minLength: 1, description: 'Version to deploy' },
      breaking: { type: 'boolean', description: 'The release breaks its API: asks for the changelog users must read' },
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
    changelog: {
      kind: 'form',
      message: ({ context }) => `${context.service} ${context.version} breaks its API: what must users know?`,
      schema: {
        type: 'object',
        properties: { changelog: { type: 'string', title: 'Changelog', minLength: 1, maxLength: 2000 } },
        required: ['changelog'],
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
    context: {
      service: string;
      version: string;
      breaking?: boolean;
      window: string | null;
      changelog: string | null;
      deploymentId: string | null;
    };
  },
  actors: { deploy: simulatedDeploy },
  guards: {
    breaking: ({ context }) => context.breaking === true,
    // #region confirmed-guard
    confirmed: ({ event }) => event.type === 'answer.confirm.accept' && event.content.confirm,
    // #endregion confirmed-guard
  },
});

// The tool result is the output of whichever final state the flow ends in.
export const releaseMachine = release.createMachine({
  id: 'release',
  initial: 'pickWindow',
  context: ({ input }) => ({ ...input, window: null, changelog: null, deploymentId: null }),
  states: {
    pickWindow: {
      tags: ['baton.input'],
      meta: { 'baton.input': { key: 'window' } },
      on: {
        'answer.window.accept': [
          { guard: 'breaking', target: 'changelog', actions: assign({ window: ({ event }) => event.content.window }) },
          { target: 'confirm', actions: assign({ window: ({ event }) => event.content.window }) },
        ],
        'answer.window.decline': 'cancelled',
        'answer.window.cancel': 'cancelled',
      },
    },
    changelog: {
      tags: ['baton.input'],
      meta: { 'baton.input': { key: 'changelog' } },
      on: {
        'answer.changelog.accept': {
          target: 'confirm',
          actions: assign({ changelog: ({ event }) => event.content.changelog }),
        },
        'answer.changelog.decline': 'cancelled',
        'answer.changelog.cancel': 'cancelled',
      },
    },
    // #region confirm-question
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
    // #endregion confirm-question
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
        ...(context.changelog === null ? {} : { changelog: context.changelog }),
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
    'Deploy a version of a service: asks for a release window, for a breaking release the changelog, asks for confirmation, then deploys. Declining at any step deploys nothing.',
  annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: true },
  // #region kept-version
  machine: releaseMachine,
  // Flows version 1 started finish on it (release.v1.ts).
  versions: [{ machine: releaseV1Machine, label: 'v1' }],
  // #endregion kept-version
  exampleArguments: { service: 'billing', version: '2.4.0' },
  examples: [
    {
      title: 'a breaking release asks for its changelog before the confirmation',
      arguments: { service: 'billing', version: '3.0.0', breaking: true },
      answers: {
        changelog: { action: 'accept', content: { changelog: 'Removes the v1 invoices API; use /v2/invoices.' } },
      },
    },
  ],
  // Reading the docs must never deploy.
  exampleActors: { deploy: exampleDeploy },
});
