import { expect } from 'chai';
import type { Socket } from 'node:net';
import { residentBytes } from '../../scripts/fuzz/process-memory.js';
import { generateKeyEntry } from '../../server/engine/index.js';
import { callToolFrom, openSocket } from '../helpers/from-address.js';
import { BatonFleet, type BatonInstance } from '../helpers/spawn-baton.js';

/**
 * The red-team attack of issue 13, finding 1, against a real process: 1,000 connections each send
 * the headers and 1 MiB minus one byte of body, then stall. It took RSS from 67 MB to 1.11 GB.
 * The socket cap per client is raised here so that the body budget alone must hold.
 */
describe('1,000 stalled 1 MiB bodies', function () {
  this.timeout(90_000);
  const MIB = 1024 * 1024;
  const STALLED = 1000;
  const fleet = new BatonFleet();
  let baton: BatonInstance;
  const sockets: Socket[] = [];

  before(async () => {
    baton = await fleet.start({
      keys: generateKeyEntry('stall'),
      env: { BATON_MAX_SOCKETS_PER_CLIENT: String(STALLED + 100) },
    });
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await fleet.stopAll();
  });

  async function release(localAddress: string): Promise<unknown> {
    const args = { service: 'api', version: `${Math.random()}` };
    const first = await callToolFrom(localAddress, baton.url, 'release', args);
    const second = await callToolFrom(localAddress, baton.url, 'release', args, {
      requestState: first.body.result.requestState,
      inputResponses: { window: { action: 'accept', content: { window: 'now' } } },
    });
    const third = await callToolFrom(localAddress, baton.url, 'release', args, {
      requestState: second.body.result.requestState,
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
    });
    return third.body.result?.structuredContent?.released;
  }

  it('keeps RSS within 150 MB of its idle reading, and honest flows complete meanwhile', async function () {
    expect(await release('127.0.0.2')).to.equal(true);
    const before = residentBytes(baton.pid);
    if (before === undefined) this.skip();
    const body = Buffer.alloc(MIB - 1, 0x20);
    const head =
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${baton.port}\r\nContent-Type: application/json\r\n` +
      `Accept: application/json, text/event-stream\r\nContent-Length: ${MIB}\r\n\r\n`;
    let peak = before!;
    const sample = setInterval(() => (peak = Math.max(peak, residentBytes(baton.pid) ?? 0)), 50);
    try {
      for (let i = 0; i < STALLED; i += 50) {
        const batch = await Promise.all(
          Array.from({ length: 50 }, async () => {
            const socket = await openSocket(baton.port, head);
            socket.on('error', () => {});
            socket.write(body);
            return socket;
          }),
        );
        sockets.push(...batch);
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(await release('127.0.0.2')).to.equal(true);
    } finally {
      clearInterval(sample);
    }
    const grown = (peak - before!) / MIB;
    process.stdout.write(`      RSS ${(before! / MIB).toFixed(0)} MiB idle, +${grown.toFixed(0)} MiB at the peak\n`);
    expect(grown).to.be.below(150);
  });
});
