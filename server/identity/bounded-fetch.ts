/**
 * One GET of an issuer's JSON (metadata or key set) that cannot cost more than its bounds: a
 * timeout over the whole exchange, body included (a trickling body is cut off like a silent one);
 * a cap on the body, checked against Content-Length first and then while streaming, so reading
 * stops at the cap instead of buffering whatever the issuer sends; and no redirect followed (the
 * well-known URLs and a `jwks_uri` answer directly; a redirect could lead anywhere, and a chain of
 * them would stretch the fetch). Anything else than a 200 with a JSON body within the cap throws.
 */

export interface FetchBounds {
  timeoutMs: number;
  maxBytes: number;
}

/** Why a fetch produced no document; the message goes to the server log, never to a client. */
export class IssuerFetchFailed extends Error {}

export async function fetchBoundedJson(url: string, bounds: FetchBounds): Promise<unknown> {
  const response = await fetch(url, {
    headers: { accept: 'application/json' },
    redirect: 'manual',
    signal: AbortSignal.timeout(bounds.timeoutMs),
  });
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    const redirect = response.status >= 300 && response.status < 400;
    throw new IssuerFetchFailed(redirect ? `redirect (${response.status}) not followed` : `HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > bounds.maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new IssuerFetchFailed(`body of ${declared} bytes is over the cap of ${bounds.maxBytes}`);
  }
  const text = await readCapped(response.body, bounds.maxBytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new IssuerFetchFailed('body is not JSON');
  }
}

/** The body as text, or a throw as soon as more than `maxBytes` have arrived (the rest is not read). */
async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string> {
  if (body === null) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // Cancelling the stream aborts the connection: the issuer's remaining bytes are never read.
      await reader.cancel().catch(() => undefined);
      throw new IssuerFetchFailed(`body is over the cap of ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}
