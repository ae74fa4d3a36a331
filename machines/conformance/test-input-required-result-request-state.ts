/** test_input_required_result_request_state: one confirmation carried through requestState (`request-state`). */
import { setup } from 'xstate';
import { defineTool, type AnswerEvent } from '../../server/engine/index.js';
import { NO_ARGUMENTS } from './media.js';

const machine = setup({ types: {} as { events: AnswerEvent } }).createMachine({
  id: 'testInputRequiredResultRequestState',
  initial: 'ask',
  output: ({ event }) => event.output,
  states: {
    ask: {
      tags: ['baton.input'],
      meta: {
        'baton.input': {
          kind: 'form',
          key: 'confirm',
          message: 'Confirm to continue.',
          schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
        },
      },
      on: {
        'answer.confirm.accept': 'accepted',
        'answer.confirm.decline': 'declined',
        'answer.confirm.cancel': 'declined',
      },
    },
    accepted: { type: 'final', output: 'state-ok: the request state came back intact.' },
    declined: { type: 'final', output: 'Not confirmed.' },
  },
});

export const testInputRequiredResultRequestState = defineTool({
  name: 'test_input_required_result_request_state',
  description: 'Asks for a confirmation and finishes from the sealed request state.',
  inputSchema: NO_ARGUMENTS,
  machine,
});
