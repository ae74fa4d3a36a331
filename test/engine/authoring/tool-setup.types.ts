/**
 * Type-level test of the typed authoring API: each `@ts-expect-error` below marks a misspelling
 * that must not compile, in question states built by `ask.<key>(…)` and in question states
 * written as plain data (`plainQuestionStates`). `npm run typecheck` fails if one of them compiles (an unused
 * `@ts-expect-error` is an error), and tool-setup.test.ts checks each fails for its own line (and
 * that a misspelled target's error is one short sentence naming the nearest valid target).
 * Nothing here runs.
 */
import { assign } from 'xstate';
import { defineTool, toolSetup } from '../../../server/engine/index.js';
import { teamSetup, teamTool } from '../../testing/fixtures.js';
import { expenseMachine, expenseSetup } from './expense-approval.js';

const { ask } = expenseSetup;

export function misspellings() {
  const context = () => ({ amount: 1, purpose: '', justification: null, manager: null });
  expenseSetup.createMachine({
    initial: 'a',
    context,
    states: {
      // @ts-expect-error a misspelled target in an answer handler
      a: ask.confirm({ onAccept: 'filde', onDecline: 'declined' }),
      filed: { type: 'final' },
      declined: { type: 'final' },
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
        always: 'filde',
      },
      filed: { type: 'final' },
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
  ask.confirm({
    // @ts-expect-error a misspelled guard in an answer handler
    onAccept: [{ guard: 'confirmd', target: 'b' }, { target: 'b' }],
    onDecline: 'b',
  });
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

/**
 * A form whose schema leaves `additionalProperties` out: its answer is still typed as exactly the
 * declared properties, so a misspelled field fails wherever it is read.
 */
export function answerTypos() {
  const booking = toolSetup({
    inputSchema: { type: 'object', properties: { date: { type: 'string' } }, required: ['date'] },
    questions: {
      confirm: {
        kind: 'form',
        message: 'Book it?',
        schema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
      },
    },
    types: {} as { context: { date: string; note: string } },
    guards: {
      // @ts-expect-error a misspelled answer field in a named guard
      confirmed: ({ event }) => event.type === 'answer.confirm.accept' && event.content.confrim === true,
    },
    actions: {
      // @ts-expect-error a misspelled answer field in a named action
      log: ({ event }) => console.log(event.type === 'answer.confirm.accept' && event.content.confrim),
    },
  });
  booking.createMachine({
    initial: 'asking',
    // @ts-expect-error a misspelled argument, though inputSchema leaves additionalProperties out
    context: ({ input }) => ({ date: input.dat, note: '' }),
    states: {
      asking: booking.ask.confirm({
        onAccept: [
          {
            // @ts-expect-error a misspelled answer field in an inline guard
            guard: ({ event }) => event.content.confrim,
            target: 'booked',
            // @ts-expect-error a misspelled answer field in a template string
            actions: assign({ note: ({ event }) => `confirmed: ${event.content.confrim}` }),
          },
          { target: 'declined' },
        ],
        onDecline: 'declined',
      }),
      booked: { type: 'final' },
      declined: { type: 'final' },
    },
  });
}

/**
 * The same misspellings in question states written as plain data (question-states.ts): what
 * XState's tooling reads is checked as closely as what the builders take.
 */
export function plainQuestionStates() {
  const context = () => ({ amount: 1, purpose: '', justification: null, manager: null });
  const handlers = { 'answer.confirm.decline': 'declined', 'answer.confirm.cancel': 'declined' } as const;
  expenseSetup.createMachine({
    initial: 'a',
    context,
    states: {
      a: {
        tags: ['baton.input'],
        meta: { 'baton.input': { key: 'confirm' } },
        on: {
          // @ts-expect-error a misspelled target in a plain question state
          'answer.confirm.accept': 'filde',
          'answer.confirm.decline': 'declined',
          'answer.confirm.cancel': 'declined',
        },
      },
      filed: { type: 'final' },
      declined: { type: 'final' },
    },
  });
  expenseSetup.createMachine({
    initial: 'a',
    context,
    states: {
      a: {
        tags: ['baton.input'],
        // @ts-expect-error a misspelled question key in a plain question state
        meta: { 'baton.input': { key: 'confrim' } },
        on: {
          'answer.confirm.accept': 'filed',
          'answer.confirm.decline': 'declined',
          'answer.confirm.cancel': 'declined',
        },
      },
      filed: { type: 'final' },
      declined: { type: 'final' },
    },
  });
  expenseSetup.createMachine({
    initial: 'a',
    context,
    states: {
      a: {
        tags: ['baton.input'],
        meta: { 'baton.input': { key: 'confirm' } },
        on: {
          'answer.confirm.accept': {
            target: 'filed',
            // @ts-expect-error a misspelled answer field in a plain question state
            actions: assign({ justification: ({ event }) => String(event.content.confrim) }),
          },
          ...handlers,
        },
      },
      filed: { type: 'final' },
      declined: { type: 'final' },
    },
  });
  expenseSetup.createMachine({
    initial: 'a',
    context,
    states: {
      a: {
        tags: ['baton.input'],
        meta: { 'baton.input': { key: 'confirm' } },
        on: {
          // @ts-expect-error a misspelled guard in a plain question state
          'answer.confirm.accept': [{ guard: 'confirmd', target: 'filed' }, { target: 'declined' }],
          ...handlers,
        },
      },
      filed: { type: 'final' },
      declined: { type: 'final' },
    },
  });
  expenseSetup.createMachine({
    initial: 'a',
    context,
    states: {
      a: {
        // @ts-expect-error a question state without the baton.input tag
        meta: { 'baton.input': { key: 'confirm' } },
        on: { 'answer.confirm.accept': 'filed', ...handlers },
      },
      filed: { type: 'final' },
      declined: { type: 'final' },
    },
  });
  expenseSetup.createMachine({
    initial: 'a',
    context,
    states: {
      a: {
        tags: ['baton.input'],
        // @ts-expect-error a question state that does not handle a decline
        meta: { 'baton.input': { key: 'confirm' } },
        on: { 'answer.confirm.accept': 'filed', 'answer.confirm.cancel': 'declined' },
      },
      filed: { type: 'final' },
      declined: { type: 'final' },
    },
  });
}

/** A misspelled action in a plain question state of a setup with named actions. */
export function plainActionTypo() {
  const booking = toolSetup({
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    questions: {
      confirm: {
        kind: 'form',
        message: 'Book it?',
        schema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
      },
    },
    actions: { book: () => {} },
  });
  booking.createMachine({
    initial: 'asking',
    context: {},
    states: {
      asking: {
        tags: ['baton.input'],
        meta: { 'baton.input': { key: 'confirm' } },
        on: {
          // @ts-expect-error a misspelled action in a plain question state
          'answer.confirm.accept': { target: 'booked', actions: 'bok' },
          // @ts-expect-error a misspelled action, as an object
          'answer.confirm.decline': { target: 'booked', actions: { type: 'bok' } },
          'answer.confirm.cancel': 'booked',
        },
      },
      booked: { type: 'final' },
    },
  });
}

/**
 * Example answers typed from each question's schema (`teamSetup`: `team` is an enum field,
 * `details` a form of two fields), in `exampleAnswers` and in `examples[].answers`.
 */
export function exampleAnswerTypos() {
  const { machine, inputSchema } = teamTool();
  teamSetup.defineTool({
    name: 'x',
    description: 'x',
    machine,
    // @ts-expect-error an example answer outside the question's enum
    exampleAnswers: { team: { action: 'accept', content: { team: 'platfrom' } } },
  });
  teamSetup.defineTool({
    name: 'x',
    description: 'x',
    machine,
    exampleAnswers: {
      // @ts-expect-error a misspelled field in an example answer
      details: { action: 'accept', content: { laptop: true, nte: 'desk by the window' } },
    },
  });
  teamSetup.defineTool({
    name: 'x',
    description: 'x',
    machine,
    examples: [
      // @ts-expect-error an answer outside the enum in examples[].answers
      { title: 'typo', answers: { team: { action: 'accept', content: { team: 'platfrom' } } } },
      // @ts-expect-error a misspelled question key in examples[].answers
      { title: 'key', answers: { taem: { action: 'decline' } } },
    ],
  });
  // What the schemas allow compiles: a list (one per time asked), a decline, an optional field left out.
  teamSetup.defineTool({
    name: 'x',
    description: 'x',
    machine,
    exampleAnswers: {
      team: [{ action: 'accept', content: { team: 'platform' } }, { action: 'decline' }],
      details: { action: 'accept', content: { laptop: false } },
    },
    examples: [{ title: 'design', answers: { team: { action: 'accept', content: { team: 'design' } } } }],
  });
  // A plain defineTool knows no questions: its answers stay untyped.
  defineTool({
    name: 'x',
    description: 'x',
    inputSchema,
    machine,
    exampleAnswers: { team: { action: 'accept', content: { team: 'platfrom' } }, anything: 1 },
    examples: [{ title: 'untyped', answers: { taem: 'anything' } }],
  });
}
