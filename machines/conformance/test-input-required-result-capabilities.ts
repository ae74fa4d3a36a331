/**
 * test_input_required_result_capabilities: asks through elicitation and sampling at once, and
 * skips whichever the client did not declare (onUnsupported), so a sampling-only client is asked
 * only by sampling (`capability-check`).
 */
import { setup } from 'xstate';
import { defineTool, type AnswerEvent } from '../../server/engine/index.js';
import { NO_ARGUMENTS } from './media.js';

const machine = setup({ types: {} as { events: AnswerEvent } }).createMachine({
  id: 'testInputRequiredResultCapabilities',
  initial: 'gather',
  output: ({ event }) => event.output,
  states: {
    gather: {
      type: 'parallel',
      onDone: 'done',
      states: {
        byForm: {
          initial: 'asking',
          states: {
            asking: {
              tags: ['baton.input'],
              meta: {
                'baton.input': {
                  kind: 'form',
                  key: 'user_preference',
                  message: 'Which option do you prefer?',
                  schema: { type: 'object', properties: { option: { type: 'string' } }, required: ['option'] },
                },
              },
              on: {
                'answer.user_preference.accept': 'answered',
                'answer.user_preference.decline': 'answered',
                'answer.user_preference.cancel': 'answered',
                // Skipped when the client did not declare elicitation.
                'answer.user_preference.unsupported': 'answered',
              },
            },
            answered: { type: 'final' },
          },
        },
        byModel: {
          initial: 'asking',
          states: {
            asking: {
              tags: ['baton.input'],
              meta: {
                'baton.input': {
                  kind: 'sampling',
                  key: 'model_opinion',
                  request: {
                    messages: [{ role: 'user', content: { type: 'text', text: 'Pick an option.' } }],
                    maxTokens: 50,
                  },
                },
              },
              on: { 'answer.model_opinion.result': 'answered', 'answer.model_opinion.unsupported': 'answered' },
            },
            answered: { type: 'final' },
          },
        },
      },
    },
    done: { type: 'final', output: 'Gathered what the client could give.' },
  },
});

export const testInputRequiredResultCapabilities = defineTool({
  name: 'test_input_required_result_capabilities',
  description: 'Asks only what the client declared it can answer.',
  inputSchema: NO_ARGUMENTS,
  machine,
});
