/**
 * test_tool_with_progress: three steps 50 ms apart, each reporting progress, which forces an SSE
 * response when the request carries a progressToken (conformance `tools-call-with-progress`).
 */
import { setup } from 'xstate';
import { defineTool, reportProgress } from '../../server/engine/index.js';
import { NO_ARGUMENTS } from './media.js';

const machine = setup({}).createMachine({
  id: 'testToolWithProgress',
  initial: 'starting',
  output: ({ event }) => event.output,
  states: {
    starting: {
      entry: reportProgress({ progress: 0, total: 100, message: 'Starting' }),
      after: { 50: 'halfway' },
    },
    halfway: {
      entry: reportProgress({ progress: 50, total: 100, message: 'Halfway' }),
      after: { 50: 'finishing' },
    },
    finishing: {
      entry: reportProgress({ progress: 100, total: 100, message: 'Done' }),
      always: 'done',
    },
    done: { type: 'final', output: 'Progress test completed.' },
  },
});

export const testToolWithProgress = defineTool({
  name: 'test_tool_with_progress',
  description: 'Reports progress three times, then answers.',
  inputSchema: NO_ARGUMENTS,
  machine,
});
