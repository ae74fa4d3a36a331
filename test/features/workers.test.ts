/**
 * `baton serve --workers 2`: one primary forks two workers (node:cluster) that share the port.
 * Every request here opens a new connection, so the primary's round robin hands consecutive
 * requests to different workers; each worker names itself in `Baton-Instance` (`host:pid`).
 */
import { request } from 'node:http';
import { expect } from 'chai';
import { generateKeyEntry } from '../../server/engine/index.js';
import { requestMeta, standardHeaders } from '../helpers/mcp-http.js';
import { BatonFleet, type BatonInstance } from '../helpers/spawn-baton.js';

interface Answer {
  status: number;
  instance: string;
  body: any;
}

/** One request on a connection of its own (no keep-alive), so the cluster may pick any worker. */
function freshRequest(url: string, method: 'GET' | 'POST', body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = { connection: 'close' };
  if (payload !== undefined) Object.assign(headers, standardHeaders(body as { method: string; params: any }));
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, instance: String(res.headers['baton-instance']), body: JSON.parse(text) }),
      );
    });
    req.on('error', reject);
    // A connection handed to a worker at the moment it dies is never answered.
    req.setTimeout(2000, () => req.destroy(new Error('no answer within 2 s')));
    req.end(payload);
  });
}

function pidOf(instanceId: string): number {
  return Number(instanceId.slice(instanceId.lastIndexOf(':') + 1));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

let nextId = 1;
function toolCall(name: string, args: Record<string, unknown>, round: Record<string, unknown> = {}) {
  return {
    jsonrpc: '2.0',
    id: nextId++,
    method: 'tools/call',
    params: { name, arguments: args, ...round, _meta: requestMeta({ elicitation: {} }) },
  };
}

/** Asks /healthz on fresh connections until `count` distinct instances answered (or 20 s pass). */
async function instancesSeen(origin: string, count: number, exclude: Set<string> = new Set()): Promise<Set<string>> {
  const seen = new Set<string>();
  const deadline = Date.now() + 20_000;
  while (seen.size < count && Date.now() < deadline) {
    try {
      const { instance } = await freshRequest(`${origin}/healthz`, 'GET');
      if (!exclude.has(instance)) seen.add(instance);
      else if (exclude.size > 0) await delay(20); // waiting for a restarted worker
    } catch {
      await delay(20);
    }
  }
  return seen;
}

/** Runs `flows` release flows, each round on a fresh connection; returns the instances that served. */
async function releasesAcross(primary: BatonInstance, flows: number): Promise<string[]> {
  const visited = new Set<string>();
  for (let flow = 0; flow < flows; flow += 1) {
    const args = { service: `svc-${flow}`, version: '1.0.0' };
    const first = await freshRequest(primary.url, 'POST', toolCall('release', args));
    const second = await freshRequest(
      primary.url,
      'POST',
      toolCall('release', args, {
        requestState: first.body.result.requestState,
        inputResponses: { window: { action: 'accept', content: { window: 'now' } } },
      }),
    );
    const third = await freshRequest(
      primary.url,
      'POST',
      toolCall('release', args, {
        requestState: second.body.result.requestState,
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      }),
    );
    expect(third.body.result.structuredContent, JSON.stringify(third.body)).to.include({ released: true });
    for (const answer of [first, second, third]) visited.add(answer.instance);
  }
  return [...visited];
}

describe('baton serve --workers 2 (node:cluster)', function () {
  this.timeout(60_000);

  const fleet = new BatonFleet();
  let primary: BatonInstance;
  const workerIds = new Set<string>();

  before(async () => {
    primary = await fleet.start({ keys: generateKeyEntry('workers'), args: ['--workers', '2'] });
  });

  after(async () => {
    // The primary stops its workers; any worker left over (a failed test) is killed by PID.
    await fleet.stopAll();
    for (const id of workerIds) if (isAlive(pidOf(id))) process.kill(pidOf(id), 'SIGKILL');
  });

  it('answers from two worker processes, each with its own Baton-Instance', async () => {
    const seen = await instancesSeen(primary.origin, 2);
    for (const id of seen) workerIds.add(id);
    expect(seen.size).to.equal(2);
    const pids = [...seen].map(pidOf);
    expect(pids).to.not.include(primary.pid);
    expect(pids.every(isAlive)).to.equal(true);
  });

  it('continues flows across workers: they share the key ring', async () => {
    expect(await releasesAcross(primary, 4)).to.have.length(2);
  });

  it('restarts a worker that dies', async () => {
    const [victim] = [...workerIds];
    process.kill(pidOf(victim!), 'SIGKILL');
    const replacement = await instancesSeen(primary.origin, 1, workerIds);
    expect(replacement.size, 'a new worker answered').to.equal(1);
    for (const id of replacement) workerIds.add(id);
    expect(isAlive(pidOf(victim!))).to.equal(false);
    // Two workers serve again: the survivor and the replacement.
    const serving = await instancesSeen(primary.origin, 2);
    expect(serving.size).to.equal(2);
    expect([...serving]).to.not.include(victim);
  });

  it('SIGTERM on the primary stops every worker, and the primary exits 0', async () => {
    // The workers the earlier tests saw (two, then a replacement); none may outlive the primary.
    expect(workerIds.size).to.be.at.least(2);
    await primary.stop(10_000);
    expect(await primary.exited).to.deep.equal({ code: 0, signal: null });
    for (const id of workerIds) expect(isAlive(pidOf(id)), `worker ${id}`).to.equal(false);
  });
});

describe('baton serve --workers 2 without BATON_KEYS', function () {
  this.timeout(60_000);
  const fleet = new BatonFleet();

  after(() => fleet.stopAll());

  it('hands the one ephemeral key to every worker, so flows still cross workers', async () => {
    const primary = await fleet.start({ keys: '', args: ['--workers', '2'] });
    expect(primary.stderr()).to.include('EPHEMERAL');
    // Ready means one worker answers; wait for the second before spreading flows over both.
    expect((await instancesSeen(primary.origin, 2)).size).to.equal(2);
    expect(await releasesAcross(primary, 4)).to.have.length(2);
  });
});
