/**
 * test_streaming_elicitation: under 2026-07-28 a question is never a server-to-client request on
 * the stream; it is an input_required result (conformance `server-stateless`,
 * "no independent requests on stream").
 */
import { setup } from 'xstate';
import { defineTool, type AnswerEvent } from '../../server/engine/index.js';
import { NO_ARGUMENTS } from './media.js';

const machine = setup({ types: {} as { events: AnswerEvent } }).createMachine({
  id: 'testStreamingElicitation',
  initial: 'ask',
  output: ({ event }) => event.output,
  states: {
    ask: {
      tags: ['baton.input'],
      meta: {
        'baton.input': {
          kind: 'form',
          key: 'answer',
          message: 'Please provide an answer.',
          schema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
        },
      },
      on: {
        'answer.answer.accept': 'accepted',
        'answer.answer.decline': 'declined',
        'answer.answer.cancel': 'declined',
      },
    },
    accepted: { type: 'final', output: 'Thanks for answering.' },
    declined: { type: 'final', output: 'No answer given.' },
  },
});

export const testStreamingElicitation = defineTool({
  name: 'test_streaming_elicitation',
  description: 'Asks one question through input_required, never on the stream.',
  inputSchema: NO_ARGUMENTS,
  machine,
});
