/** test_input_required_result_sampling: ask the client's model, report its answer (`basic-sampling`). */
import { assign, setup } from 'xstate';
import { defineTool, type AnswerEvent, type SamplingResultEvent } from '../../server/engine/index.js';
import { NO_ARGUMENTS } from './media.js';

const machine = setup({ types: {} as { context: { answer: string }; events: AnswerEvent } }).createMachine({
  id: 'testInputRequiredResultSampling',
  initial: 'sample',
  context: { answer: '' },
  output: ({ event }) => event.output,
  states: {
    sample: {
      tags: ['baton.input'],
      meta: {
        'baton.input': {
          kind: 'sampling',
          key: 'sample_request',
          request: {
            messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
            maxTokens: 100,
          },
        },
      },
      on: {
        'answer.sample_request.result': {
          target: 'done',
          actions: assign({
            answer: ({ event }) => {
              const content = (event as SamplingResultEvent).result.content as { text?: string };
              return content?.text ?? '';
            },
          }),
        },
      },
    },
    done: { type: 'final', output: ({ context }) => `The model said: ${context.answer}` },
  },
});

export const testInputRequiredResultSampling = defineTool({
  name: 'test_input_required_result_sampling',
  description: "Asks the client's model a question through sampling.",
  inputSchema: NO_ARGUMENTS,
  machine,
});
