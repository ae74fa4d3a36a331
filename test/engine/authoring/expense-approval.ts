/**
 * A tool written against the typed authoring API (toolSetup), as in issue 11's trial: two
 * questions in parallel above a threshold, a confirmation, an invoked effect, structured output.
 * Shared by the run-time test and the type-level test of misspellings.
 */
import { assign, fromPromise } from 'xstate';
import { toolSetup } from '../../../server/engine/index.js';

export const expenseSetup = toolSetup({
  inputSchema: {
    type: 'object',
    properties: { amount: { type: 'number', minimum: 0 }, purpose: { type: 'string' } },
    required: ['amount', 'purpose'],
    additionalProperties: false,
  },
  questions: {
    justification: {
      kind: 'form',
      message: ({ context }) => `Why does "${context.purpose}" need ${context.amount}?`,
      schema: {
        type: 'object',
        properties: { justification: { type: 'string', minLength: 1 } },
        required: ['justification'],
        additionalProperties: false,
      },
    },
    manager: {
      kind: 'form',
      message: 'Who approves it?',
      schema: {
        type: 'object',
        properties: { manager: { type: 'string', enum: ['ada', 'grace'] } },
        required: ['manager'],
        additionalProperties: false,
      },
    },
    confirm: {
      kind: 'form',
      message: 'File the expense?',
      schema: {
        type: 'object',
        properties: { confirm: { type: 'boolean' } },
        required: ['confirm'],
        additionalProperties: false,
      },
    },
  },
  types: {} as {
    context: { amount: number; purpose: string; justification: string | null; manager: 'ada' | 'grace' | null };
  },
  actors: {
    file: fromPromise(async ({ input }: { input: { amount: number } }) => ({ id: `exp-${input.amount}` })),
  },
  guards: {
    large: ({ context }) => context.amount >= 1000,
    confirmed: ({ event }) => event.type === 'answer.confirm.accept' && event.content.confirm,
  },
});

const { ask } = expenseSetup;

export const expenseMachine = expenseSetup.createMachine({
  id: 'expense-approval',
  initial: 'sizing',
  context: ({ input }) => ({ amount: input.amount, purpose: input.purpose, justification: null, manager: null }),
  states: {
    sizing: { always: [{ guard: 'large', target: 'details' }, { target: 'confirm' }] },
    details: {
      type: 'parallel',
      states: {
        why: {
          initial: 'asking',
          states: {
            asking: ask.justification({
              onAccept: {
                target: 'answered',
                actions: assign({ justification: ({ event }) => event.content.justification }),
              },
              onDecline: '#expense-approval.declined',
            }),
            answered: { type: 'final' },
          },
        },
        who: {
          initial: 'asking',
          states: {
            asking: ask.manager({
              onAccept: { target: 'answered', actions: assign({ manager: ({ event }) => event.content.manager }) },
              onDecline: '#expense-approval.declined',
            }),
            answered: { type: 'final' },
          },
        },
      },
      onDone: 'confirm',
    },
    confirm: ask.confirm({
      singleUse: true,
      onAccept: [{ guard: 'confirmed', target: 'filing' }, { target: 'declined' }],
      onDecline: 'declined',
    }),
    filing: {
      invoke: {
        src: 'file',
        input: ({ context }) => ({ amount: context.amount }),
        onDone: 'filed',
        onError: 'declined',
      },
    },
    filed: {
      type: 'final',
      output: ({ context }) => ({ filed: true, manager: context.manager, justification: context.justification }),
    },
    declined: { type: 'final', output: { filed: false } },
  },
});

export const expenseApprovalTool = expenseSetup.defineTool({
  name: 'expense-approval',
  description: 'Files an expense; above 1000 it asks why and who approves it, in one round.',
  machine: expenseMachine,
  exampleArguments: { amount: 1200, purpose: 'conference' },
  exampleAnswers: { justification: { action: 'accept', content: { justification: 'talk accepted' } } },
  exampleActors: { file: fromPromise(async () => ({ id: 'exp-example' })) },
});
