/** test_input_required_result_request_state: one confirmation carried through requestState (`request-state`). */
import { defineTool } from '../../server/engine/index.js';
import { askOnceMachine } from './ask-once.js';
import { NO_ARGUMENTS } from './media.js';

export const testInputRequiredResultRequestState = defineTool({
  name: 'test_input_required_result_request_state',
  description: 'Asks for a confirmation and finishes from the sealed request state.',
  inputSchema: NO_ARGUMENTS,
  machine: askOnceMachine({
    id: 'testInputRequiredResultRequestState',
    key: 'confirm',
    message: 'Confirm to continue.',
    schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    accepted: 'state-ok: the request state came back intact.',
    declined: 'Not confirmed.',
  }),
});
