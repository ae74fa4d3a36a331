/**
 * Limits that hold before a request is even parsed: how long a client may take to send its
 * headers and its whole request, how long an idle keep-alive connection stays open, and how many
 * sockets one client address may hold. Node's defaults (60 s for headers, 300 s for the request)
 * let sockets that trickle their headers pile up until the process runs out of file descriptors.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { clientKey } from './client-address.js';

export interface ConnectionLimits {
  /** Time to receive the complete headers (10 s). */
  headersTimeoutMs: number;
  /** Time to receive the complete request, body included (30 s). */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open (5 s). */
  keepAliveTimeoutMs: number;
  /** Open sockets one client address (an IPv6 /64) may hold; more are closed at once (256). */
  maxSocketsPerClient: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxSocketsPerClient: 256,
};

/** How often Node checks the header and request timeouts; its 30 s default would blur them. */
const CHECK_INTERVAL_MS = 1_000;

/** The options `http.createServer` needs for the timeouts (the interval can only be set there). */
export function serverTimeoutOptions(limits: ConnectionLimits) {
  return {
    headersTimeout: limits.headersTimeoutMs,
    // Node requires requestTimeout >= headersTimeout when both are set.
    requestTimeout: Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs),
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(CHECK_INTERVAL_MS, limits.headersTimeoutMs),
  };
}

/** Closes a new socket at once when its client address already holds `maxSocketsPerClient`. */
export function capSocketsPerClient(server: Server, maxSocketsPerClient: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const key = clientKey(socket.remoteAddress);
    const count = open.get(key) ?? 0;
    if (count >= maxSocketsPerClient) {
      socket.destroy();
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}
