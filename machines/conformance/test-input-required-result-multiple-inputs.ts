/**
 * test_input_required_result_multiple_inputs: three questions of three kinds in one round, from
 * three parallel regions (`multiple-input-requests`).
 */
import { setup } from 'xstate';
import { defineTool, type AnswerEvent } from '../../server/engine/index.js';
import { NO_ARGUMENTS } from './media.js';

const machine = setup({ types: {} as { events: AnswerEvent } }).createMachine({
  id: 'testInputRequiredResultMultipleInputs',
  initial: 'gather',
  output: ({ event }) => event.output,
  states: {
    gather: {
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
                  key: 'user_name',
                  message: 'What is your name?',
                  schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
                },
              },
              on: {
                'answer.user_name.accept': 'answered',
                'answer.user_name.decline': 'answered',
                'answer.user_name.cancel': 'answered',
              },
            },
            answered: { type: 'final' },
          },
        },
        greeting: {
          initial: 'asking',
          states: {
            asking: {
              tags: ['baton.input'],
              meta: {
                'baton.input': {
                  kind: 'sampling',
                  key: 'greeting',
                  request: {
                    messages: [{ role: 'user', content: { type: 'text', text: 'Write a greeting.' } }],
                    maxTokens: 50,
                  },
                },
              },
              on: { 'answer.greeting.result': 'answered' },
            },
            answered: { type: 'final' },
          },
        },
        roots: {
          initial: 'asking',
          states: {
            asking: {
              tags: ['baton.input'],
              meta: { 'baton.input': { kind: 'roots', key: 'client_roots' } },
              on: { 'answer.client_roots.result': 'answered' },
            },
            answered: { type: 'final' },
          },
        },
      },
    },
    done: { type: 'final', output: 'All three inputs received.' },
  },
});

export const testInputRequiredResultMultipleInputs = defineTool({
  name: 'test_input_required_result_multiple_inputs',
  description: 'Asks an elicitation, a sampling and a roots question in one round.',
  inputSchema: NO_ARGUMENTS,
  machine,
});
