/** test_input_required_result_multi_round: two questions in two rounds (`multi-round`). */
import { assign, setup } from 'xstate';
import { defineTool, formContent, type AnswerEvent } from '../../server/engine/index.js';
import { NO_ARGUMENTS } from './media.js';

const machine = setup({
  types: {} as { context: { name: string; color: string }; events: AnswerEvent },
}).createMachine({
  id: 'testInputRequiredResultMultiRound',
  initial: 'step1',
  context: { name: '', color: '' },
  output: ({ event }) => event.output,
  states: {
    step1: {
      tags: ['baton.input'],
      meta: {
        'baton.input': {
          kind: 'form',
          key: 'step1',
          message: 'What is your name?',
          schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
      },
      on: {
        'answer.step1.accept': {
          target: 'step2',
          actions: assign({ name: ({ event }) => formContent<{ name: string }>(event).name }),
        },
        'answer.step1.decline': 'declined',
        'answer.step1.cancel': 'declined',
      },
    },
    step2: {
      tags: ['baton.input'],
      meta: {
        'baton.input': {
          kind: 'form',
          key: 'step2',
          message: ({ context }: { context: { name: string } }) =>
            `Hello ${context.name}, what is your favourite colour?`,
          schema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
        },
      },
      on: {
        'answer.step2.accept': {
          target: 'done',
          actions: assign({ color: ({ event }) => formContent<{ color: string }>(event).color }),
        },
        'answer.step2.decline': 'declined',
        'answer.step2.cancel': 'declined',
      },
    },
    done: { type: 'final', output: ({ context }) => `${context.name} likes ${context.color}.` },
    declined: { type: 'final', output: 'Stopped before the end.' },
  },
});

export const testInputRequiredResultMultiRound = defineTool({
  name: 'test_input_required_result_multi_round',
  description: 'Asks two questions in two rounds.',
  inputSchema: NO_ARGUMENTS,
  machine,
});
