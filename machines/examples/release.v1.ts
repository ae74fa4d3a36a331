/**
 * release, version 1: the machine `release` served before it asked a breaking release for its
 * changelog (release.ts). Kept as code, unchanged, so flows and tasks this version started (a
 * sealed state presented after the deploy) finish on it with the same questions and the same
 * deployment, instead of restarting (docs/deploy.md, "Deploys that change a machine"). Remove it
 * once no state it sealed can still be presented: after the state TTL (15 minutes by default).
 *
 *   pickWindow (form) -> confirm (form, boolean) -> deploying (invoked promise) -> released
 */
import { assign } from 'xstate';
import { toolSetup } from '../../server/engine/index.js';
import { exampleDeploy, simulatedDeploy } from './release-deploy.js';

const releaseV1 = toolSetup({
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

export const releaseV1Machine = releaseV1.createMachine({
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

/** Version 1 as a tool of its own: what the build before the change served (tests mint its states). */
export const releaseV1Tool = releaseV1.defineTool({
  name: 'release',
  title: 'Release a service',
  description:
    'Deploy a version of a service: asks for a release window, asks for confirmation, then deploys. Declining at any step deploys nothing.',
  annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: true },
  machine: releaseV1Machine,
  exampleArguments: { service: 'billing', version: '2.4.0' },
  // Reading the docs must never deploy.
  exampleActors: { deploy: exampleDeploy },
});
