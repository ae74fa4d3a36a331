/**
 * Type-level test of the typed authoring API: each `@ts-expect-error` below marks a misspelling
 * that must not compile. `npm run typecheck` fails if one of them compiles (an unused
 * `@ts-expect-error` is an error), and tool-setup.test.ts checks each fails for its own line.
 * Nothing here runs.
 */
import { assign } from 'xstate';
import { expenseMachine, expenseSetup } from './expense-approval.js';

const { ask } = expenseSetup;

export function misspellings() {
  const context = () => ({ amount: 1, purpose: '', justification: null, manager: null });
  expenseSetup.createMachine({
    initial: 'a',
    context,
    states: {
      // @ts-expect-error a misspelled target in an answer handler
      a: ask.confirm({ onAccept: 'filde', onDecline: 'b' }),
      b: { type: 'final' },
    },
  });
  expenseSetup.createMachine({
    initial: 'a',
    context,
    states: {
      a: {
        on: {
          // @ts-expect-error a misspelled event on a state that asks nothing
          'answer.justifcation.accept': 'b',
        },
      },
      b: { type: 'final' },
    },
  });
  expenseSetup.createMachine({
    initial: 'a',
    context,
    states: {
      a: {
        // @ts-expect-error a misspelled target in an ordinary transition
        always: 'bb',
      },
      b: { type: 'final' },
    },
  });
  ask.justification({
    onAccept: {
      // @ts-expect-error a misspelled context field
      actions: assign({ justificaton: ({ event }) => event.content.justification }),
    },
    onDecline: 'b',
  });
  ask.manager({
    onAccept: {
      // @ts-expect-error a wrong answer type: manager is 'ada' | 'grace', not a number
      actions: assign({ manager: ({ event }) => (event.content.manager === 'ada' ? 1 : null) }),
    },
    onDecline: 'b',
  });
  ask.confirm({
    onAccept: {
      // @ts-expect-error a misspelled answer field
      actions: assign({ justification: ({ event }) => String(event.content.confrim) }),
    },
    onDecline: 'b',
  });
  // @ts-expect-error a misspelled question key
  ask.justifcation({ onAccept: 'a', onDecline: 'b' });
  expenseSetup.createMachine({
    initial: 'a',
    // @ts-expect-error a misspelled argument
    context: ({ input }) => ({ amount: input.amuont, purpose: '', justification: null, manager: null }),
    states: { a: { type: 'final' } },
  });
  expenseSetup.defineTool({
    name: 'x',
    description: 'x',
    machine: expenseMachine,
    // @ts-expect-error example arguments that do not fit inputSchema
    exampleArguments: { amount: 'lots', purpose: 'x' },
    // @ts-expect-error an example answer for a question that is not asked
    exampleAnswers: { justifcation: {} },
  });
}
