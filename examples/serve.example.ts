// The @example of `serve`, compiled; `npm run docs:examples` copies the region into its doc comment.
// #region serve
import { serve } from 'baton-mcp/server';
import { tools } from './tools/index.js';

// BATON_KEYS, PORT, HOST, BATON_TOKENS, … are read as `baton serve` reads them; options win.
const serving = await serve({ tools, port: 3000 });
console.log(`MCP endpoint: ${serving.url}`);
process.once('SIGTERM', () => void serving.close());
// #endregion serve
