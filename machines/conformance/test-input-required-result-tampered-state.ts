/** test_input_required_result_tampered_state: one question; a tampered state must be refused (`tampered-state`). */
import { setup } from 'xstate';
import { askForm, defineTool, type AnswerEvent } from '../../server/engine/index.js';
import { NO_ARGUMENTS } from './media.js';

const machine = setup({ types: {} as { events: AnswerEvent } }).createMachine({
  id: 'testInputRequiredResultTamperedState',
  initial: 'confirm',
  output: ({ event }) => event.output,
  states: {
    confirm: askForm({
      key: 'confirm',
      message: 'Confirm the operation.',
      schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      onAccept: 'done',
      onDecline: 'declined',
    }),
    done: { type: 'final', output: 'Confirmed.' },
    declined: { type: 'final', output: 'Not confirmed.' },
  },
});

export const testInputRequiredResultTamperedState = defineTool({
  name: 'test_input_required_result_tampered_state',
  description: 'Asks one question; its sealed state refuses any change.',
  inputSchema: NO_ARGUMENTS,
  machine,
});
