/** test_input_required_result_request_state: one confirmation carried through requestState (`request-state`). */
import { setup } from 'xstate';
import { askForm, defineTool, type AnswerEvent } from '../../server/engine/index.js';
import { NO_ARGUMENTS } from './media.js';

const machine = setup({ types: {} as { events: AnswerEvent } }).createMachine({
  id: 'testInputRequiredResultRequestState',
  initial: 'confirm',
  output: ({ event }) => event.output,
  states: {
    confirm: askForm({
      key: 'confirm',
      message: 'Confirm to continue.',
      schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      onAccept: 'done',
      onDecline: 'declined',
    }),
    done: { type: 'final', output: 'state-ok: the request state came back intact.' },
    declined: { type: 'final', output: 'Not confirmed.' },
  },
});

export const testInputRequiredResultRequestState = defineTool({
  name: 'test_input_required_result_request_state',
  description: 'Asks for a confirmation and finishes from the sealed request state.',
  inputSchema: NO_ARGUMENTS,
  machine,
});
