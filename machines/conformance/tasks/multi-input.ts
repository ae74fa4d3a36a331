/**
 * multi_input: a task that asks two questions at once, from two parallel regions; each can be
 * answered by its own `tasks/update` (`tasks-mrtr-input`, partial fulfilment).
 */
import { setup } from 'xstate';
import { defineTool, type AnswerEvent } from '../../../server/engine/index.js';

const machine = setup({ types: {} as { events: AnswerEvent } }).createMachine({
  id: 'multiInput',
  initial: 'asking',
  output: ({ event }) => event.output,
  states: {
    // The task starts here (baton.task): both questions are asked inside it, in one round.
    asking: {
      tags: ['baton.task'],
      type: 'parallel',
      onDone: 'done',
      states: {
        name: {
          initial: 'asking',
          states: {
            asking: {
              tags: ['baton.input'],
              meta: {
                'baton.input': {
                  kind: 'form',
                  key: 'name',
                  message: 'What is your name?',
                  schema: { type: 'object', properties: { name: { type: 'string' } } },
                },
              },
              on: {
                'answer.name.accept': 'answered',
                'answer.name.decline': 'answered',
                'answer.name.cancel': 'answered',
              },
            },
            answered: { type: 'final' },
          },
        },
        confirm: {
          initial: 'asking',
          states: {
            asking: {
              tags: ['baton.input'],
              meta: {
                'baton.input': {
                  kind: 'form',
                  key: 'confirm',
                  message: 'Shall we go on?',
                  schema: { type: 'object', properties: { confirm: { type: 'boolean' } } },
                },
              },
              on: {
                'answer.confirm.accept': 'answered',
                'answer.confirm.decline': 'answered',
                'answer.confirm.cancel': 'answered',
              },
            },
            answered: { type: 'final' },
          },
        },
      },
    },
    done: { type: 'final', output: 'Both answers received.' },
  },
});

export const multiInput = defineTool({
  name: 'multi_input',
  description: 'Asks two questions at once inside a task.',
  inputSchema: { type: 'object' },
  machine,
  task: 'optional',
});
