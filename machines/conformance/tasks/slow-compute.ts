/**
 * slow_compute: waits `seconds` on an `after` timer, then answers. A client that declared the
 * tasks extension gets a task as soon as the timer is set; `seconds: 0` answers at once, with no
 * task (`tasks-lifecycle`, `tasks-wire-fields`, `tasks-dispatch-and-envelope`).
 */
import { setup } from 'xstate';
import { defineTool } from '../../../server/engine/index.js';

interface SlowComputeArgs {
  seconds: number;
  label?: string;
}

const machine = setup({
  types: {} as { context: SlowComputeArgs; input: SlowComputeArgs },
  delays: { computeTime: ({ context }) => context.seconds * 1000 },
  guards: { instant: ({ context }) => context.seconds <= 0 },
}).createMachine({
  id: 'slowCompute',
  initial: 'start',
  context: ({ input }) => ({ seconds: input.seconds, label: input.label ?? 'job' }),
  output: ({ event }) => event.output,
  states: {
    start: { always: [{ guard: 'instant', target: 'done' }, { target: 'computing' }] },
    computing: { after: { computeTime: 'done' } },
    done: {
      type: 'final',
      output: ({ context }) => `Computed ${context.label} in ${context.seconds} s.`,
    },
  },
});

export const slowCompute = defineTool({
  name: 'slow_compute',
  description: 'Computes for the given number of seconds, as a task when the client takes tasks.',
  inputSchema: {
    type: 'object',
    properties: { seconds: { type: 'number', minimum: 0 }, label: { type: 'string' } },
    required: ['seconds'],
  },
  machine,
  task: 'optional',
});
