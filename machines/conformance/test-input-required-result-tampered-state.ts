/** test_input_required_result_tampered_state: one question; a tampered state must be refused (`tampered-state`). */
import { setup } from 'xstate';
import { defineTool, type AnswerEvent } from '../../server/engine/index.js';
import { NO_ARGUMENTS } from './media.js';

const machine = setup({ types: {} as { events: AnswerEvent } }).createMachine({
  id: 'testInputRequiredResultTamperedState',
  initial: 'ask',
  output: ({ event }) => event.output,
  states: {
    ask: {
      tags: ['baton.input'],
      meta: {
        'baton.input': {
          kind: 'form',
          key: 'confirm',
          message: 'Confirm the operation.',
          schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
        },
      },
      on: {
        'answer.confirm.accept': 'accepted',
        'answer.confirm.decline': 'declined',
        'answer.confirm.cancel': 'declined',
      },
    },
    accepted: { type: 'final', output: 'Confirmed.' },
    declined: { type: 'final', output: 'Not confirmed.' },
  },
});

export const testInputRequiredResultTamperedState = defineTool({
  name: 'test_input_required_result_tampered_state',
  description: 'Asks one question; its sealed state refuses any change.',
  inputSchema: NO_ARGUMENTS,
  machine,
});
