/** A loopback port for a server the bench or a test starts (Redis, Baton). */
import { createServer } from 'node:net';

/** A port that was free a moment ago: bind 127.0.0.1:0, read the port, close. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
