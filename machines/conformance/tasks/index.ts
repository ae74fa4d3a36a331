/** The fixtures of the conformance suite's tasks-* scenarios (the tasks extension). */
export { greet } from './greet.js';
export { slowCompute } from './slow-compute.js';
export { failingJob } from './failing-job.js';
export { protocolErrorJob } from './protocol-error-job.js';
export { confirmDelete } from './confirm-delete.js';
export { multiInput } from './multi-input.js';
export { testToolWithTask } from './test-tool-with-task.js';
