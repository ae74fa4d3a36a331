/**
 * The high-availability bench's single-use flow: one confirmation whose state is single use, as
 * before an effect (a deploy, a payment). The first round asks and seals the state; the second,
 * presenting it with the answer, claims the state in the guard's Redis, runs to the result and
 * records the outcome there: the round every instance of a fleet must see alike.
 */
import { setup } from 'xstate';
import { askForm, defineTool, type AnswerEvent } from '../../server/engine/index.js';

const machine = setup({ types: {} as { events: AnswerEvent } }).createMachine({
  id: 'benchSingleUse',
  initial: 'confirm',
  states: {
    confirm: askForm({
      key: 'confirm',
      message: 'Go ahead?',
      schema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
      onAccept: 'done',
      onDecline: 'declined',
      singleUse: true,
    }),
    done: { type: 'final', output: 'done' },
    declined: { type: 'final', output: 'declined' },
  },
  output: ({ event }) => event.output,
});

export const singleUseConfirmTool = defineTool({
  name: 'bench-single-use',
  description: 'One single-use confirmation, then the result.',
  inputSchema: { type: 'object' },
  machine,
});
