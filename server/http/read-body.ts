/**
 * Reads the raw request body with a size limit and a time limit. We parse JSON ourselves: a body
 * parser would hide the parse error that must become -32700, and would buffer without a bound we
 * control. Plain stream events, not an async iterator: breaking out of an iterator destroys the
 * socket, and then not even the 413 could be sent.
 */
import type { IncomingMessage } from 'node:http';
import type { BodyReservation } from './body-budget.js';

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

/** A chunked body outgrew what the body budget could still reserve (body-budget.ts). */
export class BodyBudgetExceededError extends Error {
  constructor() {
    super('Too many request bodies are arriving at once');
  }
}

/** The client went away before its body was complete. */
export class BodyAbortedError extends Error {
  constructor() {
    super('The client closed the connection before the body was complete');
  }
}

/**
 * `reservation` holds the bytes already reserved for this body (its declared length); a body
 * that grows past them must reserve more or is refused with BodyBudgetExceededError.
 */
export function readBody(
  request: IncomingMessage,
  limit: number,
  timeoutMs: number,
  reservation?: { bytes: number; budget: BodyReservation },
): Promise<string> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLargeError(limit));
  if (!(declared > 0)) return readStream(request, limit, timeoutMs, reservation);
  // A small body has usually arrived in the same packet as its headers, but Node's parser emits
  // the request when the headers end, before it pushes that body into the stream: one microtask
  // later it is there, and is taken whole, with no timer and no listeners.
  return Promise.resolve().then(
    () => bufferedBody(request, declared) ?? readStream(request, limit, timeoutMs, reservation),
  );
}

/**
 * The whole body when all of it waits in the stream's buffer (within the limit and within the bytes
 * reserved: its declared length); resume() lets the stream reach its end by itself.
 */
function bufferedBody(request: IncomingMessage, declared: number): string | undefined {
  if (request.readableLength !== declared || request.readableFlowing) return undefined;
  const body = request.read(declared) as Buffer | null;
  if (body === null) return undefined;
  request.resume();
  return body.toString('utf8');
}

function readStream(
  request: IncomingMessage,
  limit: number,
  timeoutMs: number,
  reservation?: { bytes: number; budget: BodyReservation },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let reserved = reservation?.bytes ?? 0;
    const finish = (error?: Error) => {
      clearTimeout(timer);
      request.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size).toString('utf8'));
    };
    const refuse = (error: Error) => {
      // Keep reading and discarding, so the answer can still be delivered on this connection.
      chunks.length = 0;
      request.resume();
      finish(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return refuse(new BodyTooLargeError(limit));
      if (reservation && size > reserved) {
        if (!reservation.budget.grow(size - reserved)) return refuse(new BodyBudgetExceededError());
        reserved = size;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish();
    const onError = () => finish(new BodyAbortedError());
    const onClose = () => {
      if (!request.complete) finish(new BodyAbortedError());
    };
    // A client that trickles its body must not hold the connection (and the work behind it) open.
    const timer = setTimeout(() => {
      finish(new BodyTimeoutError(timeoutMs));
      request.destroy();
    }, timeoutMs);
    request.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/** How much of a refused body is read and thrown away so its client can read the refusal. */
export const LINGER = { maxBytes: 16 * 1024 * 1024, maxMs: 5_000 };

/**
 * Reads the rest of a refused body and throws it away, so a client still sending it is not cut off
 * mid-write before it reads the refusal (Node's fetch reports a write error, EPIPE, instead of the
 * response when the socket closes under it). Bounded as nginx's lingering close is: resolves true
 * once the body has ended, false after `maxBytes` more or `maxMs` (then the connection must close).
 */
export function discardRest(request: IncomingMessage, limits = LINGER): Promise<boolean> {
  if (request.complete) return Promise.resolve(true);
  return new Promise((resolve) => {
    let seen = 0;
    const done = (drained: boolean) => {
      clearTimeout(timer);
      request.off('data', onData).off('end', onEnd).off('close', onClose);
      resolve(drained);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limits.maxBytes) done(false);
    };
    const onEnd = () => done(true);
    const onClose = () => done(request.complete);
    const timer = setTimeout(() => done(false), limits.maxMs);
    request.on('data', onData).on('end', onEnd).on('close', onClose);
    request.resume();
  });
}
