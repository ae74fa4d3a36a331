// The @example of `reportProgress`, compiled; `npm run docs:examples` copies the region into its doc comment.
// #region reportProgress
import { fromPromise } from 'xstate';
import { reportProgress, toolSetup } from 'baton-mcp';

const build = toolSetup({
  inputSchema: { type: 'object', properties: {} },
  questions: {},
  actors: { compile: fromPromise(async () => 'built') },
});

export const buildMachine = build.createMachine({
  id: 'build',
  initial: 'compiling',
  context: {},
  states: {
    compiling: {
      // Sent as notifications/progress when the call asked for progress (a progressToken).
      entry: reportProgress({ progress: 1, total: 2, message: 'compiling' }),
      invoke: { src: 'compile', onDone: 'done' },
    },
    done: { type: 'final', entry: reportProgress({ progress: 2, total: 2 }), output: 'built' },
  },
});
// #endregion reportProgress
