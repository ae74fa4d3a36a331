/**
 * `serve`: a Baton server listening over HTTP in one call, for a project that serves its own
 * tools (`createServer` and `listen` underneath). `close` stops the listener, its connections
 * and the task runner.
 */
import type { Server } from 'node:http';
import { createServer, type BatonOptions, type BatonServer } from './create-server.js';
import { applyV8Settings } from './v8-settings.js';

export interface ServeOptions extends BatonOptions {
  /** The port to listen on (0: any free port; default 3000). */
  port?: number;
}

export interface Serving {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  url: string;
  server: Server;
  baton: BatonServer;
  close(): Promise<void>;
}

export async function serve(options: ServeOptions): Promise<Serving> {
  // serve() runs a server process of its own: it runs with Baton's V8 settings (v8-settings.ts).
  applyV8Settings();
  const baton = createServer(options);
  const { server, url } = await baton.listen(options.port ?? 3000, options.host);
  return {
    url,
    server,
    baton,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await baton.close();
    },
  };
}
