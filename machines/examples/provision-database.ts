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
import { assign, fromPromise, setup } from 'xstate';
import { askForm, defineTool, formContent, type AnswerEvent } from '../../server/engine/index.js';

export interface ProvisionArgs {
  project: string;
}

interface ProvisionContext extends ProvisionArgs {
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

const SIZES = ['small', 'medium', 'large'];
const REGIONS = ['eu-west', 'us-east', 'ap-south'];

export const provisionMachine = setup({
  types: {} as { context: ProvisionContext; input: ProvisionArgs; events: AnswerEvent },
  actors: { checkQuota, provision: simulatedProvision },
  guards: {
    confirmed: ({ event }) => formContent<{ confirm: boolean }>(event).confirm === true,
  },
}).createMachine({
  id: 'provision',
  initial: 'collect',
  context: ({ input }) => ({ ...input, size: null, region: null, problem: null, databaseUrl: null }),
  output: ({ event }) => event.output,
  states: {
    collect: {
      type: 'parallel',
      onDone: 'checking',
      states: {
        size: {
          initial: 'asking',
          states: {
            asking: askForm<ProvisionContext>({
              key: 'size',
              message: ({ context }) => `Which size should the database for ${context.project} be?`,
              schema: {
                type: 'object',
                properties: { size: { type: 'string', title: 'Size', enum: SIZES } },
                required: ['size'],
              },
              onAccept: {
                target: 'chosen',
                actions: assign({ size: ({ event }) => formContent<{ size: string }>(event).size }),
              },
              onDecline: '#provision.cancelled',
            }),
            chosen: { type: 'final' },
          },
        },
        region: {
          initial: 'asking',
          states: {
            asking: askForm<ProvisionContext>({
              key: 'region',
              message: ({ context }) => `${context.problem ? `${context.problem} ` : ''}Which region should it run in?`,
              schema: {
                type: 'object',
                properties: { region: { type: 'string', title: 'Region', enum: REGIONS } },
                required: ['region'],
              },
              onAccept: {
                target: 'chosen',
                actions: assign({ region: ({ event }) => formContent<{ region: string }>(event).region }),
              },
              onDecline: '#provision.cancelled',
            }),
            chosen: { type: 'final' },
          },
        },
      },
    },
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
    confirm: askForm<ProvisionContext>({
      key: 'confirm',
      message: ({ context }) => `Create a ${context.size} database for ${context.project} in ${context.region}?`,
      schema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', title: 'Create it' } },
        required: ['confirm'],
      },
      onAccept: [{ guard: 'confirmed', target: 'provisioning' }, { target: 'cancelled' }],
      onDecline: 'cancelled',
      // Confirming provisions: a resent confirmation must never create a second database.
      singleUse: true,
    }),
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
    failed: {
      type: 'final',
      output: ({ context }) => ({
        content: [{ type: 'text', text: `Provisioning for ${context.project} failed.` }],
        isError: true,
      }),
    },
  },
});

export const provisionDatabaseTool = defineTool({
  name: 'provision-database',
  title: 'Provision a database',
  description:
    'Create a database for a project: asks for size and region together, checks availability, confirms, then provisions.',
  inputSchema: {
    type: 'object',
    properties: { project: { type: 'string', minLength: 1, description: 'Project that owns the database' } },
    required: ['project'],
    additionalProperties: false,
  },
  annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
  machine: provisionMachine,
  exampleArguments: { project: 'atlas' },
  // The quota check only reads; provisioning is an effect the docs replace.
  safeActors: ['checkQuota'],
  exampleActors: { provision: exampleProvision },
});
