/**
 * test_tool_with_task: asks for a name with an ordinary multi round-trip request, then runs the
 * rest as a task, as the extension recommends (MRTR before the task; `tasks-mrtr-composition`).
 */
import { assign, setup } from 'xstate';
import { defineTool, formContent, type AnswerEvent } from '../../../server/engine/index.js';

const machine = setup({
  types: {} as { context: { name: string }; events: AnswerEvent },
}).createMachine({
  id: 'testToolWithTask',
  initial: 'askName',
  context: { name: '' },
  output: ({ event }) => event.output,
  states: {
    askName: {
      tags: ['baton.input'],
      meta: {
        'baton.input': {
          kind: 'form',
          key: 'user_name',
          message: 'What is your name?',
          schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
      },
      on: {
        'answer.user_name.accept': {
          target: 'working',
          actions: assign({ name: ({ event }) => formContent<{ name: string }>(event).name }),
        },
        'answer.user_name.decline': 'declined',
        'answer.user_name.cancel': 'declined',
      },
    },
    // The timer is long work: the task starts here.
    working: { after: { 500: 'done' } },
    done: { type: 'final', output: ({ context }) => `Hello, ${context.name}! Your task is done.` },
    declined: { type: 'final', output: 'No name, no task.' },
  },
});

export const testToolWithTask = defineTool({
  name: 'test_tool_with_task',
  description: 'Asks for a name, then finishes the work as a task.',
  inputSchema: { type: 'object' },
  machine,
  task: 'required',
});
