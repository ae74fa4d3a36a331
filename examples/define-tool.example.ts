// The @example of `defineTool`, compiled; `npm run docs:examples` copies the region into its doc comment.
// #region defineTool
import { defineTool, respondWith } from 'baton-mcp';

export const echoTool = defineTool({
  name: 'echo',
  description: 'Answers with its arguments.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  machine: respondWith('echo', (input: { text: string }) => input.text),
});
// #endregion defineTool
