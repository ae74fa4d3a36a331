// The @example of `toolSetup`, compiled; `npm run docs:examples` copies the region into its doc comment.
// #region toolSetup
import { toolSetup } from 'baton-mcp';

const approval = toolSetup({
  inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
  questions: {
    confirm: {
      kind: 'form',
      message: ({ context }) => `Approve ${context.amount}?`,
      schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    },
  },
  types: {} as { context: { amount: number } },
});

export const approvalTool = approval.defineTool({
  name: 'approval',
  description: 'Approves an amount.',
  machine: approval.createMachine({
    id: 'approval',
    initial: 'confirm',
    context: ({ input }) => ({ amount: input.amount }),
    states: {
      // A question is a plain state: the tag, the key it asks, a transition for each answer.
      confirm: {
        tags: ['baton.input'],
        meta: { 'baton.input': { key: 'confirm' } },
        on: {
          'answer.confirm.accept': [
            { guard: ({ event }) => event.content.ok, target: 'approved' },
            { target: 'refused' },
          ],
          'answer.confirm.decline': 'refused',
          'answer.confirm.cancel': 'refused',
        },
      },
      approved: { type: 'final', output: ({ context }) => `Approved ${context.amount}.` },
      refused: { type: 'final', output: 'Not approved.' },
    },
  }),
});
// #endregion toolSetup
