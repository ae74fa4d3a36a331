/** test_input_required_result_tampered_state: one question; a tampered state must be refused (`tampered-state`). */
import { defineTool } from '../../server/engine/index.js';
import { askOnceMachine } from './ask-once.js';
import { NO_ARGUMENTS } from './media.js';

export const testInputRequiredResultTamperedState = defineTool({
  name: 'test_input_required_result_tampered_state',
  description: 'Asks one question; its sealed state refuses any change.',
  inputSchema: NO_ARGUMENTS,
  machine: askOnceMachine({
    id: 'testInputRequiredResultTamperedState',
    key: 'confirm',
    message: 'Confirm the operation.',
    schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    accepted: 'Confirmed.',
    declined: 'Not confirmed.',
  }),
});
