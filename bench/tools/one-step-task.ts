/**
 * The high-availability bench's task tool: a task from its first state, whose one step is an
 * invoked promise that resolves at once, after which the task completes. A task of it costs what
 * every task costs on Redis and nothing more: the record written at creation, the step's job
 * queued and run (the claim of the task, the round, the terminal record) and the expiry timer.
 */
import { fromPromise, setup } from 'xstate';
import { defineTool, startsTask } from '../../server/engine/index.js';

const machine = setup({ actors: { work: fromPromise(async () => 'done') } }).createMachine({
  id: 'benchOneStep',
  initial: 'working',
  output: ({ event }) => event.output,
  states: {
    working: startsTask({ invoke: { src: 'work', onDone: 'done' } }),
    done: { type: 'final', output: 'done' },
  },
});

export const oneStepTaskTool = defineTool({
  name: 'bench-one-step',
  description: 'A task of one step that completes at once.',
  inputSchema: { type: 'object' },
  machine,
  task: 'required',
});
