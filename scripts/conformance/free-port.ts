/**
 * A TCP port that is free on the loopback interface right now. Another process could take it
 * before Baton binds it; Baton then fails with EADDRINUSE and the caller sees the server exit.
 */
import { createServer, type AddressInfo } from 'node:net';

export function freeLoopbackPort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
