/**
 * The console's live updates (server/http/console-events.ts): one event stream per page, fed by
 * the store's change channel, changes coalesced, a task page's stream told of its task only, a
 * cap on the streams one operator holds, and a 404 for anyone but an operator.
 */
import { expect } from 'chai';
import { MemoryTaskStore } from '../../server/engine/index.js';
import { staticBearerTokens } from '../../server/http/index.js';
import { countingShipRelease } from '../helpers/counting-ship-release.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';
import { listedRecord } from '../engine/tasks/task-listing-cases.js';

const OPS = 'ops-token-0123456789abcdef';
const USER = 'user-token-0123456789abcdef';

/** An open event stream: its status, and the events read so far. */
interface Events {
  status: number;
  headers: Headers;
  events: Array<{ event: string; data: string }>;
  /** Resolves once `count` events named `name` have arrived (or rejects after `ms`). */
  until(name: string, count?: number, ms?: number): Promise<void>;
  close(): void;
}

async function open(url: string, token?: string): Promise<Events> {
  const controller = new AbortController();
  const response = await fetch(url, {
    signal: controller.signal,
    headers: token ? { authorization: `Bearer ${token}`, accept: 'text/event-stream' } : {},
  });
  const events: Events['events'] = [];
  let waiters: Array<() => void> = [];
  if (response.ok && response.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            if (event) events.push({ event, data: /^data: (.*)$/m.exec(block)?.[1] ?? '' });
            for (const wake of waiters) wake();
          }
        }
      } catch {
        // aborted
      }
    })();
  } else {
    await response.text();
  }
  return {
    status: response.status,
    headers: response.headers,
    events,
    until(name, count = 1, ms = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (events.filter((e) => e.event === name).length >= count) {
            clearTimeout(timer);
            waiters = waiters.filter((w) => w !== check);
            resolve();
          }
        };
        const timer = setTimeout(() => reject(new Error(`no ${count} ${name} events: ${JSON.stringify(events)}`)), ms);
        waiters.push(check);
        check();
      });
    },
    close: () => controller.abort(),
  };
}

const changed = (e: Events) => e.events.filter((x) => x.event === 'changed').map((x) => JSON.parse(x.data));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the console’s live updates', function () {
  this.timeout(30_000);
  let server: RunningServer;
  let store: MemoryTaskStore;
  const streams: Events[] = [];
  const stream = async (path: string, token?: string) => {
    const opened = await open(`${server.origin}${path}`, token);
    streams.push(opened);
    return opened;
  };

  before(async () => {
    store = new MemoryTaskStore();
    server = await startTestServer({
      tools: [countingShipRelease({ stepMs: 1 }).tool],
      authenticate: staticBearerTokens(
        new Map([
          [OPS, 'ops'],
          [USER, 'user'],
        ]),
      ),
      console: { operators: ['token:ops'] },
      tasks: { store },
    });
    const now = Date.now();
    await store.create(listedRecord('task-a', { createdAt: now, lastUpdatedAt: now }));
    await store.create(listedRecord('task-b', { createdAt: now, lastUpdatedAt: now }));
  });
  afterEach(() => {
    for (const s of streams.splice(0)) s.close();
  });
  after(() => server?.close());

  it('answers anyone but an operator 404, as an unknown path, and an unknown task 404', async () => {
    for (const token of [USER, 'not-a-known-token-0123456789', undefined]) {
      for (const path of ['/console/events', '/console/events?task=task-a']) {
        const refused = await stream(path, token);
        expect(refused.status, `${path} ${token}`).to.equal(404);
        expect(refused.headers.get('www-authenticate')).to.equal(null);
      }
    }
    expect((await stream('/console/events?task=no-such-task', OPS)).status).to.equal(404);
  });

  it('tells the list page which tasks changed, a burst coalesced into one event', async () => {
    const list = await stream('/console/events', OPS);
    expect(list.status).to.equal(200);
    expect(list.headers.get('content-type')).to.match(/^text\/event-stream/);
    expect(list.headers.get('cache-control')).to.equal('no-store');
    await list.until('ready');
    for (let n = 0; n < 20; n++) await store.publish(n % 2 ? 'task-a' : 'task-b', 'changed');
    await list.until('changed');
    await sleep(1300);
    const seen = changed(list);
    expect(seen).to.have.length(1);
    expect(seen[0].tasks).to.have.members(['task-a', 'task-b']);
  });

  it('tells a task’s page of its own task only, and nothing of a cancel signal', async () => {
    const page = await stream('/console/events?task=task-a', OPS);
    await page.until('ready');
    await store.publish('task-b', 'changed');
    await store.publish('task-a', 'cancel');
    await sleep(1300);
    expect(changed(page)).to.deep.equal([]);
    await store.publish('task-a', 'changed');
    await page.until('changed');
    expect(changed(page)).to.deep.equal([{ tasks: ['task-a'] }]);
  });

  it('caps the streams one operator holds open, and frees a place when one closes', async () => {
    const held = [];
    for (let n = 0; n < 4; n++) held.push(await stream('/console/events', OPS));
    await Promise.all(held.map((s) => s.until('ready')));
    const over = await stream('/console/events', OPS);
    expect(over.status).to.equal(429);
    held[0]!.close();
    await sleep(200);
    const again = await stream('/console/events', OPS);
    expect(again.status).to.equal(200);
  });

  it('names the stream on live pages, and lets them connect only to this server', async () => {
    const response = await fetch(`${server.origin}/console`, { headers: { authorization: `Bearer ${OPS}` } });
    const html = await response.text();
    expect(html).to.include('<main data-events="/console/events">');
    expect(html).to.include('<script src="/console/assets/console-live.js"></script>');
    expect(html).to.include('<div id="live-list" data-live>');
    const policy = response.headers.get('content-security-policy')!;
    expect(policy).to.include("script-src 'self'").and.include("connect-src 'self'");
    const task = await (
      await fetch(`${server.origin}/console/tasks/task-a`, { headers: { authorization: `Bearer ${OPS}` } })
    ).text();
    expect(task).to.include('data-events="/console/events?task=task-a"');
    const script = await fetch(`${server.origin}/console/assets/console-live.js`, {
      headers: { authorization: `Bearer ${OPS}` },
    });
    expect(script.status).to.equal(200);
    expect((await fetch(`${server.origin}/console/assets/console-live.js`)).status).to.equal(404);
  });
});
