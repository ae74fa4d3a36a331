/**
 * confirm_delete: a task from its first state, which asks for a confirmation inside the task
 * (`tasks/get` shows the question, `tasks/update` answers it): `tasks-mrtr-input`,
 * `tasks-dispatch-and-envelope`. Without the extension it is an ordinary multi round-trip flow.
 */
import { setup } from 'xstate';
import { defineTool, formContent, type AnswerEvent } from '../../../server/engine/index.js';

const machine = setup({
  types: {} as { context: { filename: string }; input: { filename: string }; events: AnswerEvent },
  guards: { confirmed: ({ event }) => formContent<{ confirm?: boolean }>(event).confirm === true },
}).createMachine({
  id: 'confirmDelete',
  initial: 'confirming',
  context: ({ input }) => ({ filename: input.filename }),
  output: ({ event }) => event.output,
  states: {
    // The task starts here (baton.task): the confirmation is asked inside it.
    confirming: {
      tags: ['baton.input', 'baton.task'],
      meta: {
        'baton.input': {
          kind: 'form',
          key: 'confirm',
          message: ({ context }: { context: { filename: string } }) => `Delete ${context.filename}?`,
          schema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
        },
      },
      on: {
        'answer.confirm.accept': [{ guard: 'confirmed', target: 'deleted' }, { target: 'kept' }],
        'answer.confirm.decline': 'kept',
        'answer.confirm.cancel': 'kept',
      },
    },
    deleted: { type: 'final', output: ({ context }) => `Deleted ${context.filename}.` },
    kept: { type: 'final', output: ({ context }) => `Kept ${context.filename}.` },
  },
});

export const confirmDelete = defineTool({
  name: 'confirm_delete',
  description: 'Deletes a file after a confirmation asked inside a task.',
  inputSchema: { type: 'object', properties: { filename: { type: 'string' } }, required: ['filename'] },
  machine,
  task: 'optional',
});
