/** The stdio transport's public API: newline-delimited JSON-RPC on a pair of streams. */
export { serveStdio, DEFAULT_MAX_LINE_BYTES, type StdioConnection, type StdioOptions } from './serve-stdio.js';
export { principalFromEnvironment, STDIO_PRINCIPAL } from './stdio-principal.js';
export { LineSplitter, type Line } from './line-splitter.js';
