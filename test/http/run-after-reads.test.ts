/**
 * afterReads: the requests read in one turn of the event loop run together in the check phase
 * after it, and what they answer without waiting on I/O is written behind them in that same
 * check phase (end-after-turn.ts), not a turn later.
 */
import { expect } from 'chai';
import type { ServerResponse } from 'node:http';
import { endAfterTurn } from '../../server/http/end-after-turn.js';
import { afterReads } from '../../server/http/run-after-reads.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function recordedResponse(log: string[], name: string): ServerResponse {
  return { end: (body: string) => log.push(`end ${name} ${body}`) } as unknown as ServerResponse;
}

describe('afterReads', () => {
  it('starts the requests of a turn together, in the check phase, not while the turn runs', async () => {
    const log: string[] = [];
    const first = afterReads();
    const second = afterReads();
    expect(second).to.equal(first);
    void first.then(() => log.push('a'));
    void second.then(() => log.push('b'));
    // Microtasks alone do not start the batch: only the check phase does.
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(log).to.deep.equal([]);
    await nextTurn();
    expect(log).to.deep.equal(['a', 'b']);
  });

  it('writes what the batch answers behind it, before anything queued after the batch', async () => {
    const log: string[] = [];
    void afterReads().then(() => endAfterTurn(recordedResponse(log, 'a'), '1'));
    void afterReads().then(async () => {
      await Promise.resolve();
      endAfterTurn(recordedResponse(log, 'b'), '2');
    });
    setImmediate(() => log.push('queued after the batch'));
    await nextTurn();
    expect(log).to.deep.equal(['end a 1', 'end b 2', 'queued after the batch']);
  });

  it('still writes the batch in its own check phase when a flush was already queued before it', async () => {
    const log: string[] = [];
    endAfterTurn(recordedResponse(log, 'earlier'), '0');
    void afterReads().then(() => endAfterTurn(recordedResponse(log, 'a'), '1'));
    setImmediate(() => log.push('queued after the batch'));
    await nextTurn();
    expect(log).to.deep.equal(['end earlier 0', 'end a 1', 'queued after the batch']);
  });

  it('puts a request read while a batch runs into the next batch', async () => {
    const log: string[] = [];
    let late: Promise<void> | undefined;
    const first = afterReads().then(() => {
      log.push('first');
      late = afterReads().then(() => {
        log.push('late');
      });
    });
    await first;
    expect(late).to.not.equal(undefined);
    await Promise.resolve();
    expect(log).to.deep.equal(['first']);
    await late;
    expect(log).to.deep.equal(['first', 'late']);
  });
});
