/** One HTTP POST over a keep-alive agent, returning the raw body (the generator parses it itself). */
import http from 'node:http';

export interface PostTarget {
  hostname: string;
  port: number;
  path: string;
}

export interface PostReply {
  status: number;
  contentType: string;
  body: Buffer;
}

export function keepAliveAgent(sockets: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets, scheduling: 'fifo' });
}

export function post(
  agent: http.Agent,
  target: PostTarget,
  headers: Record<string, string | number>,
  body: Buffer,
  timeoutMs: number,
): Promise<PostReply> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        agent,
        hostname: target.hostname,
        port: target.port,
        path: target.path,
        method: 'POST',
        headers: { ...headers, 'content-length': body.length },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: String(response.headers['content-type'] ?? ''),
            body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
          }),
        );
      },
    );
    request.setTimeout(timeoutMs, () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}
