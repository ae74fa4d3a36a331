/**
 * `baton tasks` as an operator runs it: the real command line against a real redis-server holding
 * a fleet's sealed records, with the fleet's BATON_REDIS_URL and BATON_KEYS. Exit codes: 0 done,
 * 1 no such task, 2 usage, 78 a setting missing.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { generateKeyEntry, parseKeyRing, RedisTaskStore } from '../../server/engine/index.js';
import { REDIS, requireBinaries } from '../helpers/required-binary.js';
import { startRedis, type RunningRedis } from '../../bench/redis/index.js';
import { listedRecord } from '../engine/tasks/task-listing-cases.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function baton(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/baton.js'), ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}

describe('baton tasks against a fleet’s Redis', function () {
  this.timeout(120_000);
  let redis: RunningRedis | undefined;
  let store: RedisTaskStore;
  const keys = generateKeyEntry('fleet');
  let env: Record<string, string>;

  before(async function () {
    requireBinaries(this, REDIS);
    redis = await startRedis();
    env = { BATON_REDIS_URL: redis.url, BATON_KEYS: keys };
    store = new RedisTaskStore({ url: redis.url, keyRing: parseKeyRing(keys) });
    const now = Date.now();
    await store.create(listedRecord('waitingA', { createdAt: now - 5000, lastUpdatedAt: now - 2000 }));
    await store.create(
      listedRecord('doneB', { status: 'completed', snapshot: undefined, createdAt: now, lastUpdatedAt: now }),
    );
  });
  after(async () => {
    await store?.close();
    await redis?.stop();
  });

  it('lists, shows and cancels the fleet’s tasks, with exit codes 0 and 1', async () => {
    const listed = await baton(['tasks', 'list', '--json'], env);
    expect(listed.code, listed.err).to.equal(0);
    expect(JSON.parse(listed.out).tasks.map((t: { taskId: string }) => t.taskId)).to.deep.equal(['doneB', 'waitingA']);
    const shown = await baton(['tasks', 'show', 'waitingA', '--json'], env);
    expect(JSON.parse(shown.out)).to.include({ taskId: 'waitingA', status: 'input_required' });
    const cancelled = await baton(['tasks', 'cancel', 'waitingA'], env);
    expect(cancelled).to.include({ code: 0, out: 'waitingA cancelled\n' });
    expect((await store.get('waitingA'))!.status).to.equal('cancelled');
    expect((await baton(['tasks', 'show', 'missing'], env)).code).to.equal(1);
  });

  it('exits 2 for a usage error and 78 without the store’s settings, before connecting', async () => {
    expect((await baton(['tasks', 'show'], env)).code).to.equal(2);
    expect((await baton(['tasks', 'list', '--status', 'nope'], env)).code).to.equal(2);
    expect((await baton(['tasks', 'list'], { BATON_KEYS: keys })).code).to.equal(78);
    expect((await baton(['tasks', 'list'], { BATON_REDIS_URL: redis!.url })).code).to.equal(78);
  });

  it('reads nothing with another fleet’s keys', async () => {
    const other = await baton(['tasks', 'list', '--json'], { ...env, BATON_KEYS: generateKeyEntry('other') });
    expect(other.code).to.equal(0);
    expect(JSON.parse(other.out).tasks).to.deep.equal([]);
  });
});
