/**
 * provision-database: ask two things at once, check them, confirm, then provision.
 *
 *   collect (parallel: size | region, asked in one round) -> checking (invoked promise)
 *     -> confirm (form, boolean) -> provisioning (invoked promise) -> provisioned
 *
 * If the check rejects the pair (large databases are not offered in ap-south), only the region
 * is asked again, with the reason; the chosen size is kept. Declining any question ends in
 * `cancelled`. The confirmation is single use: presenting its state again returns the first run's
 * result and never provisions twice. The `checkQuota` and `provision` actors are swapped with
 * `.provide()` in tests.
 */
import { assign, fromPromise } from 'xstate';
import { toolSetup } from '../../server/engine/index.js';

interface ProvisionContext {
  project: string;
  size: string | null;
  region: string | null;
  problem: string | null;
  databaseUrl: string | null;
}

interface Choice {
  size: string;
  region: string;
}

export const checkQuota = fromPromise<{ ok: boolean; reason?: string }, Choice>(async ({ input }) =>
  input.size === 'large' && input.region === 'ap-south'
    ? { ok: false, reason: 'Large databases are not offered in ap-south.' }
    : { ok: true },
);

export const simulatedProvision = fromPromise<{ databaseUrl: string }, Choice & { project: string }>(
  async ({ input }) => ({ databaseUrl: `postgres://${input.project}.${input.region}.db.internal/${input.size}` }),
);

/** What the docs' example runs instead of provisioning: the same answer, and no effect. */
const exampleProvision = fromPromise<{ databaseUrl: string }, Choice & { project: string }>(async ({ input }) => ({
  databaseUrl: `postgres://${input.project}.${input.region}.db.internal/${input.size}`,
}));

const provision = toolSetup({
  inputSchema: {
    type: 'object',
    properties: { project: { type: 'string', minLength: 1, description: 'Project that owns the database' } },
    required: ['project'],
    additionalProperties: false,
  },
  questions: {
    size: {
      kind: 'form',
      message: ({ context }) => `Which size should the database for ${context.project} be?`,
      schema: {
        type: 'object',
        properties: { size: { type: 'string', title: 'Size', enum: ['small', 'medium', 'large'] } },
        required: ['size'],
      },
    },
    region: {
      kind: 'form',
      message: ({ context }) => `${context.problem ? `${context.problem} ` : ''}Which region should it run in?`,
      schema: {
        type: 'object',
        properties: { region: { type: 'string', title: 'Region', enum: ['eu-west', 'us-east', 'ap-south'] } },
        required: ['region'],
      },
    },
    confirm: {
      kind: 'form',
      message: ({ context }) => `Create a ${context.size} database for ${context.project} in ${context.region}?`,
      schema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', title: 'Create it' } },
        required: ['confirm'],
      },
    },
  },
  types: {} as { context: ProvisionContext },
  actors: { checkQuota, provision: simulatedProvision },
  guards: {
    confirmed: ({ event }) => event.type === 'answer.confirm.accept' && event.content.confirm,
  },
});

export const provisionMachine = provision.createMachine({
  id: 'provision',
  initial: 'collect',
  context: ({ input }) => ({ ...input, size: null, region: null, problem: null, databaseUrl: null }),
  states: {
    // #region parallel-questions
    collect: {
      type: 'parallel',
      onDone: 'checking',
      states: {
        size: {
          initial: 'asking',
          states: {
            asking: {
              tags: ['baton.input'],
              meta: { 'baton.input': { key: 'size' } },
              on: {
                'answer.size.accept': {
                  target: 'chosen',
                  actions: assign({ size: ({ event }) => event.content.size }),
                },
                'answer.size.decline': '#provision.cancelled',
                'answer.size.cancel': '#provision.cancelled',
              },
            },
            chosen: { type: 'final' },
          },
        },
        region: {
          initial: 'asking',
          states: {
            asking: {
              tags: ['baton.input'],
              meta: { 'baton.input': { key: 'region' } },
              on: {
                'answer.region.accept': {
                  target: 'chosen',
                  actions: assign({ region: ({ event }) => event.content.region }),
                },
                'answer.region.decline': '#provision.cancelled',
                'answer.region.cancel': '#provision.cancelled',
              },
            },
            chosen: { type: 'final' },
          },
        },
      },
    },
    // #endregion parallel-questions
    checking: {
      invoke: {
        src: 'checkQuota',
        input: ({ context }) => ({ size: context.size!, region: context.region! }),
        onDone: [
          { guard: ({ event }) => event.output.ok, target: 'confirm', actions: assign({ problem: null }) },
          {
            // Keep the size, ask only the region again (both regions of `collect` are targeted).
            target: ['#provision.collect.size.chosen', '#provision.collect.region.asking'],
            actions: assign({ problem: ({ event }) => event.output.reason ?? 'That choice is not available.' }),
          },
        ],
        onError: 'failed',
      },
    },
    confirm: {
      // Confirming provisions: a resent confirmation must never create a second database.
      tags: ['baton.input', 'baton.singleUse'],
      meta: { 'baton.input': { key: 'confirm' } },
      on: {
        'answer.confirm.accept': [{ guard: 'confirmed', target: 'provisioning' }, { target: 'cancelled' }],
        'answer.confirm.decline': 'cancelled',
        'answer.confirm.cancel': 'cancelled',
      },
    },
    provisioning: {
      invoke: {
        src: 'provision',
        input: ({ context }) => ({ project: context.project, size: context.size!, region: context.region! }),
        onDone: {
          target: 'provisioned',
          actions: assign({ databaseUrl: ({ event }) => event.output.databaseUrl }),
        },
        onError: 'failed',
      },
    },
    provisioned: {
      type: 'final',
      output: ({ context }) => ({
        project: context.project,
        size: context.size,
        region: context.region,
        databaseUrl: context.databaseUrl,
      }),
    },
    cancelled: {
      type: 'final',
      output: ({ context }) => `Provisioning for ${context.project} cancelled: nothing was created.`,
    },
    // #region error-result
    failed: {
      type: 'final',
      output: ({ context }) => ({
        content: [{ type: 'text', text: `Provisioning for ${context.project} failed.` }],
        isError: true,
      }),
    },
    // #endregion error-result
  },
});

export const provisionDatabaseTool = provision.defineTool({
  name: 'provision-database',
  title: 'Provision a database',
  description:
    'Create a database for a project: asks for size and region together, checks availability, confirms, then provisions.',
  annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
  machine: provisionMachine,
  exampleArguments: { project: 'atlas' },
  // #region more-examples
  examples: [
    {
      title: 'a large database in ap-south is refused, so only the region is asked again',
      answers: {
        size: { action: 'accept', content: { size: 'large' } },
        region: [
          { action: 'accept', content: { region: 'ap-south' } },
          { action: 'accept', content: { region: 'eu-west' } },
        ],
        confirm: { action: 'accept', content: { confirm: true } },
      },
    },
  ],
  // #endregion more-examples
  // The quota check only reads; provisioning is an effect the docs replace.
  safeActors: ['checkQuota'],
  exampleActors: { provision: exampleProvision },
});
