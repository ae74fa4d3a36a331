/**
 * A deadline checked in the answer's own transition, not by an `always` guard on the question
 * state (docs/xstate.md, "Author traps"); compiled with the docs' blocks.
 */
import { setup } from 'xstate';
import type { AnswerEvent } from 'baton-mcp';

export const deadlineMachine = setup({
  types: {} as { context: { deadline: number }; input: { deadline: number }; events: AnswerEvent },
  guards: { expired: ({ context }) => Date.now() > context.deadline },
}).createMachine({
  id: 'deadline',
  initial: 'confirm',
  context: ({ input }) => ({ deadline: input.deadline }),
  states: {
    confirm: {
      tags: ['baton.input'],
      meta: {
        'baton.input': {
          kind: 'form',
          key: 'confirm',
          message: 'Go ahead?',
          schema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
        },
      },
      on: {
        // #region deadline-check
        'answer.confirm.accept': [{ guard: 'expired', target: 'late' }, { target: 'go' }],
        // #endregion deadline-check
        'answer.confirm.decline': 'late',
        'answer.confirm.cancel': 'late',
      },
    },
    go: { type: 'final', output: 'Done.' },
    late: { type: 'final', output: 'Too late: the deadline has passed.' },
  },
});
