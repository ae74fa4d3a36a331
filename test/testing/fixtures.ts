/** Small tools for the test kit's own tests: one that loops on decline, one that fails on cancel. */
import { setup, type AnyEventObject } from 'xstate';
import { askForm, defineTool, type AnswerEvent } from '../../server/engine/index.js';

const YES_NO = { type: 'object' as const, properties: { ok: { type: 'boolean' } }, required: ['ok'] };

/** `ask` → done on accept; declining asks again, forever; cancelling ends in a tool error. */
export function flawedTool() {
  const machine = setup({ types: {} as { events: AnswerEvent } }).createMachine({
    id: 'flawed',
    initial: 'ask',
    output: ({ event }) => (event as AnyEventObject).output,
    states: {
      ask: {
        initial: 'asking',
        states: {
          asking: askForm({
            key: 'ok',
            message: 'OK?',
            schema: YES_NO,
            onAccept: '#flawed.done',
            onDecline: 'again',
            onCancel: '#flawed.broken',
          }),
          again: { always: 'asking' },
        },
      },
      done: { type: 'final', output: 'done' },
      broken: {
        type: 'final',
        output: () => ({ content: [{ type: 'text', text: 'broke' }], isError: true }),
      },
    },
  });
  return defineTool({
    name: 'flawed',
    description: 'Loops on decline, fails on cancel.',
    inputSchema: { type: 'object', additionalProperties: false },
    machine,
  });
}
