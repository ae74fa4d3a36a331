/** test_input_required_result_prompt: a prompt that asks for context first (MRTR on prompts/get, `non-tool-request`). */
import { assign, setup } from 'xstate';
import { definePrompt, formContent, type AnswerEvent } from '../../server/engine/index.js';

const machine = setup({ types: {} as { context: { context: string }; events: AnswerEvent } }).createMachine({
  id: 'testInputRequiredResultPrompt',
  initial: 'askContext',
  context: { context: '' },
  output: ({ event }) => event.output,
  states: {
    askContext: {
      tags: ['baton.input'],
      meta: {
        'baton.input': {
          kind: 'form',
          key: 'user_context',
          message: 'What context should the prompt use?',
          schema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
        },
      },
      on: {
        'answer.user_context.accept': {
          target: 'done',
          actions: assign({ context: ({ event }) => formContent<{ context: string }>(event).context }),
        },
        'answer.user_context.decline': 'withoutContext',
        'answer.user_context.cancel': 'withoutContext',
      },
    },
    done: { type: 'final', output: ({ context }) => `Use this context: ${context.context}` },
    withoutContext: { type: 'final', output: 'No context was given.' },
  },
});

export const testInputRequiredResultPrompt = definePrompt({
  name: 'test_input_required_result_prompt',
  description: 'A prompt that asks for context before it is built.',
  machine,
});
