/** test_input_required_result_prompt: a prompt that asks for context first (MRTR on prompts/get, `non-tool-request`). */
import { assign, setup } from 'xstate';
import { askForm, definePrompt, formContent, type AnswerEvent } from '../../server/engine/index.js';

const machine = setup({ types: {} as { context: { context: string }; events: AnswerEvent } }).createMachine({
  id: 'testInputRequiredResultPrompt',
  initial: 'askContext',
  context: { context: '' },
  output: ({ event }) => event.output,
  states: {
    askContext: askForm({
      key: 'user_context',
      message: 'What context should the prompt use?',
      schema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
      onAccept: {
        target: 'done',
        actions: assign({ context: ({ event }) => formContent<{ context: string }>(event).context }),
      },
      onDecline: 'withoutContext',
    }),
    done: { type: 'final', output: ({ context }) => `Use this context: ${context.context}` },
    withoutContext: { type: 'final', output: 'No context was given.' },
  },
});

export const testInputRequiredResultPrompt = definePrompt({
  name: 'test_input_required_result_prompt',
  description: 'A prompt that asks for context before it is built.',
  machine,
});
