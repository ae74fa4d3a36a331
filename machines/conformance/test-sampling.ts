/**
 * test_sampling: asks the client's model the caller's prompt and reports the answer (conformance
 * 2025-11-25 `tools-call-sampling`, a `sampling/createMessage` request on the call's stream).
 */
import { assign, setup } from 'xstate';
import { defineTool, type AnswerEvent, type SamplingResultEvent } from '../../server/engine/index.js';

type Context = { prompt: string; answer: string };

const machine = setup({
  types: {} as { context: Context; events: AnswerEvent; input: { prompt: string } },
}).createMachine({
  id: 'testSampling',
  initial: 'sample',
  context: ({ input }) => ({ prompt: input.prompt, answer: '' }),
  output: ({ event }) => event.output,
  states: {
    sample: {
      tags: ['baton.input'],
      meta: {
        'baton.input': {
          kind: 'sampling',
          key: 'completion',
          request: ({ context }: { context: Context }) => ({
            messages: [{ role: 'user', content: { type: 'text', text: context.prompt } }],
            maxTokens: 100,
          }),
        },
      },
      on: {
        'answer.completion.result': {
          target: 'done',
          actions: assign({
            answer: ({ event }) => ((event as SamplingResultEvent).result.content as { text?: string })?.text ?? '',
          }),
        },
      },
    },
    done: { type: 'final', output: ({ context }) => `LLM response: ${context.answer}` },
  },
});

export const testSampling = defineTool({
  name: 'test_sampling',
  description: "Asks the client's model the given prompt.",
  inputSchema: {
    type: 'object',
    properties: { prompt: { type: 'string', description: 'The prompt to send to the LLM' } },
    required: ['prompt'],
  },
  machine,
});
