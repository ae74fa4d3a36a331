// The @example of `createServer`, compiled; `npm run docs:examples` copies the region into its doc comment.
// #region createServer
import { createServer, parseKeyRing } from 'baton-mcp/server';
import { tools } from './tools/index.js';

// Nothing is read from the environment: every setting is an option.
const baton = createServer({ tools, keyRing: parseKeyRing(process.env.BATON_KEYS) });
const { server, url } = await baton.listen(3000, '127.0.0.1');
console.log(`MCP endpoint: ${url}`);
process.once('SIGTERM', () => server.close(() => void baton.close()));
// #endregion createServer
