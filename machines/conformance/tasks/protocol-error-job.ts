/**
 * protocol_error_job: a task whose machine breaks after half a second. It lands in a state that
 * neither finishes nor asks nor waits, which Baton reports as an internal error (-32603): the task
 * is `failed` with the JSON-RPC error inlined, and no result (`tasks-lifecycle`).
 */
import { createMachine } from 'xstate';
import { defineTool } from '../../../server/engine/index.js';

const machine = createMachine({
  id: 'protocolErrorJob',
  initial: 'working',
  states: {
    working: { after: { 500: 'broken' } },
    // A modelling bug on purpose: no transition, no question, no work, not final.
    broken: {},
  },
});

export const protocolErrorJob = defineTool({
  name: 'protocol_error_job',
  description: 'A job that fails with a protocol-level error.',
  inputSchema: { type: 'object' },
  machine,
  // Required: a client without tasks gets -32021 up front instead of a deliberate internal error.
  task: 'required',
});
