import type { Server } from 'node:http';

/** A target listening on loopback: the MCP endpoint URL and the server to close. */
export interface StartedTarget {
  url: string;
  server: Server;
}
