/**
 * failing_job: runs only as a task, and ends with a tool error after a second: the task is
 * `completed` with `isError: true`, never `failed` (`tasks-lifecycle`, `tasks-required-task-error`).
 */
import { createMachine } from 'xstate';
import { defineTool } from '../../../server/engine/index.js';

const machine = createMachine({
  id: 'failingJob',
  initial: 'working',
  output: ({ event }) => event.output,
  states: {
    working: { after: { 1000: 'failed' } },
    failed: {
      type: 'final',
      output: { content: [{ type: 'text', text: 'The job failed: the input could not be processed.' }], isError: true },
    },
  },
});

export const failingJob = defineTool({
  name: 'failing_job',
  description: 'A job that always ends with a tool error; it runs only as a task.',
  inputSchema: { type: 'object' },
  machine,
  task: 'required',
});
