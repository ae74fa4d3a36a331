/**
 * A bare issuer on 127.0.0.1 for key-fetch tests: RFC 8414 metadata and a JWKS, each of which a
 * test can make answer well, fail (HTTP 500, invalid JSON, a redirect, a body of any size, no
 * answer at all) or change, while every request is counted by path. No OpenID machinery
 * (oidc-provider lives in oidc-issuer.ts): tokens are signed here with the issuer's own key.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, type JWTPayload } from 'jose';
import { AccessTokenRejected } from '../../server/identity/index.js';
import { signingKey, type SigningKey } from './oidc-issuer.js';

/** How an endpoint answers: a JSON document, or one of the failures a key fetch must survive. */
export type Behaviour =
  | { kind: 'ok' }
  | { kind: 'status'; status: number }
  | { kind: 'invalid-json' }
  | { kind: 'hang' }
  | { kind: 'redirect'; to: string }
  /** The good document padded with a field of `bytes` spaces; chunked unless `declareLength`. */
  | { kind: 'padded'; bytes: number; declareLength?: boolean }
  /** Any document, sent as is. */
  | { kind: 'document'; body: unknown };

export interface LocalKeyServer {
  issuer: string;
  key: SigningKey;
  /** Keys published besides `key` (or instead of it, with `publishKey = false`). */
  extraKeys: Array<Record<string, unknown>>;
  metadata: Behaviour;
  jwks: Behaviour;
  /** Requests per path (`/.well-known/oauth-authorization-server`, `/jwks`). */
  counts: Map<string, number>;
  /** Bytes written for the responses of each path (how far an over-long body got). */
  written: Map<string, number>;
  count(path: string): number;
  /** A token signed with `key` (or `signWith`), claims (undefined removes one) and header over defaults. */
  token(claims?: Record<string, unknown>, header?: Record<string, unknown>, signWith?: SigningKey): Promise<string>;
  close(): Promise<void>;
}

/** The resource the identity tests' tokens are for. */
export const TEST_AUDIENCE = 'https://mcp.example.com/mcp';

/** How a verification ended: `accepted`, or the AccessTokenRejected reason (anything else throws). */
export async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'accepted';
  } catch (error) {
    if (error instanceof AccessTokenRejected) return error.reason;
    throw error;
  }
}

export const METADATA_PATH = '/.well-known/oauth-authorization-server';
export const JWKS_PATH = '/jwks';

export async function startLocalKeyServer(audience: string): Promise<LocalKeyServer> {
  const key = await signingKey('k1');
  const hanging = new Set<ServerResponse>();
  let issuer = '';
  const state: LocalKeyServer = {
    issuer,
    key,
    extraKeys: [],
    metadata: { kind: 'ok' },
    jwks: { kind: 'ok' },
    counts: new Map(),
    written: new Map(),
    count: (path) => state.counts.get(path) ?? 0,
    token: (claims = {}, header = {}, signWith = key) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        iss: state.issuer,
        sub: 'alice',
        aud: audience,
        client_id: 'app',
        jti: randomUUID(),
        iat: now,
        exp: now + 300,
        ...claims,
      } as JWTPayload)
        .setProtectedHeader({ alg: signWith.alg, typ: 'at+jwt', kid: signWith.kid, ...header })
        .sign(signWith.privateKey);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const documents = (path: string): unknown =>
    path === JWKS_PATH
      ? { keys: [state.key.publicJwk, ...state.extraKeys] }
      : { issuer: state.issuer, jwks_uri: `${state.issuer}${JWKS_PATH}` };

  const answer = (res: ServerResponse, path: string, behaviour: Behaviour) => {
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body);
      state.written.set(path, (state.written.get(path) ?? 0) + Buffer.byteLength(body));
    };
    switch (behaviour.kind) {
      case 'ok':
        return send(200, JSON.stringify(documents(path)));
      case 'document':
        return send(200, JSON.stringify(behaviour.body));
      case 'status':
        return send(behaviour.status, '{"error":"server_error"}');
      case 'invalid-json':
        return send(200, '{"keys": [');
      case 'redirect':
        return send(302, '', { location: behaviour.to });
      case 'hang':
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return undefined;
      case 'padded':
        return sendPadded(res, path, documents(path), behaviour, state.written);
    }
  };

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    state.counts.set(path, (state.counts.get(path) ?? 0) + 1);
    if (path === METADATA_PATH) return answer(res, path, state.metadata);
    if (path === JWKS_PATH) return answer(res, path, state.jwks);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.issuer = issuer;
  return state;
}

/**
 * The document with a `padding` field of `bytes` spaces, written 64 KiB at a time while the client
 * keeps reading: a reader that stops at its cap closes the socket long before the end.
 */
function sendPadded(
  res: ServerResponse,
  path: string,
  document: unknown,
  behaviour: { bytes: number; declareLength?: boolean },
  written: Map<string, number>,
): void {
  const json = JSON.stringify(document);
  const head = `${json.slice(0, -1)},"padding":"`;
  const tail = '"}';
  const total = Buffer.byteLength(head) + behaviour.bytes + tail.length;
  res.writeHead(200, {
    'content-type': 'application/json',
    ...(behaviour.declareLength ? { 'content-length': String(total) } : {}),
  });
  const chunk = ' '.repeat(64 * 1024);
  let left = behaviour.bytes;
  const count = (n: number) => written.set(path, (written.get(path) ?? 0) + n);
  res.write(head);
  count(Buffer.byteLength(head));
  const pump = () => {
    while (left > 0 && !res.destroyed) {
      const part = left >= chunk.length ? chunk : chunk.slice(0, left);
      left -= part.length;
      count(part.length);
      if (!res.write(part)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end(tail);
  };
  res.on('error', () => undefined);
  pump();
}
