/**
 * Reads the raw request body with a size limit. We parse JSON ourselves: a body parser would hide
 * the parse error that must become -32700, and would buffer without a bound we control.
 */
import type { IncomingMessage } from 'node:http';

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`Request body exceeds the ${limit}-byte limit`);
  }
}

export class BodyTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`Request body did not arrive within ${timeoutMs} ms`);
  }
}

export async function readBody(request: IncomingMessage, limit: number, timeoutMs: number): Promise<string> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  // A client that trickles its body must not hold the connection (and the work behind it) open.
  const timer = setTimeout(() => request.destroy(new BodyTimeoutError(timeoutMs)), timeoutMs);
  try {
    for await (const chunk of request as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw new BodyTooLargeError(limit);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof BodyTimeoutError || (error as Error)?.cause instanceof BodyTimeoutError) {
      throw new BodyTimeoutError(timeoutMs);
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
