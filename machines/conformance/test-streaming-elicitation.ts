/**
 * test_streaming_elicitation: under 2026-07-28 a question is never a server-to-client request on
 * the stream; it is an input_required result (conformance `server-stateless`,
 * "no independent requests on stream").
 */
import { defineTool } from '../../server/engine/index.js';
import { askOnceMachine } from './ask-once.js';
import { NO_ARGUMENTS } from './media.js';

export const testStreamingElicitation = defineTool({
  name: 'test_streaming_elicitation',
  description: 'Asks one question through input_required, never on the stream.',
  inputSchema: NO_ARGUMENTS,
  machine: askOnceMachine({
    id: 'testStreamingElicitation',
    key: 'answer',
    message: 'Please provide an answer.',
    schema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
    accepted: 'Thanks for answering.',
    declined: 'No answer given.',
  }),
});
