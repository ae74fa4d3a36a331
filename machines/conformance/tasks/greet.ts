/** greet: the tasks scenarios' synchronous tool; it never becomes a task (`tasks-lifecycle`). */
import { defineTool, respondWith } from '../../../server/engine/index.js';

export const greet = defineTool({
  name: 'greet',
  description: 'Greets someone by name, at once.',
  inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  machine: respondWith<{ name: string }>('greet', ({ name }) => `Hello, ${name}!`),
});
