/**
 * The task benchmark's tool: a task from its first state, which waits for one answer. Creating it
 * costs the handover, the durable store write and the first step; `tasks/get` then reads it.
 */
import { setup } from 'xstate';
import { askForm, defineTool, startsTask, type AnswerEvent } from '../../server/engine/index.js';

const machine = setup({ types: {} as { events: AnswerEvent } }).createMachine({
  id: 'benchTask',
  initial: 'confirm',
  output: ({ event }) => event.output,
  states: {
    confirm: startsTask(
      askForm({
        key: 'ok',
        message: 'Go on?',
        schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
        onAccept: 'done',
        onDecline: 'done',
      }),
    ),
    done: { type: 'final', output: 'done' },
  },
});

export const benchTaskTool = defineTool({
  name: 'bench-task',
  description: 'A task that waits for one answer.',
  inputSchema: { type: 'object' },
  machine,
  task: 'required',
});
