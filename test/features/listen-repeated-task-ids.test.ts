/**
 * Red team, issue 38 (finding 1): one `subscriptions/listen` naming the caller's own large task
 * thousands of times, through the scope check, must cost one look-up per distinct id, never a
 * copy of the record per id (5,000 repeats of a ~950 KB task ran the process out of memory).
 * At the dispatcher, with scopes in force so the scope check runs first, and a store that counts
 * what it is asked.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { createMcpService, type McpService } from '../../server/create-mcp-service.js';
import {
  Cancellation,
  defineTool,
  MemoryTaskStore,
  silentLogger,
  type TaskHead,
  type TaskRecord,
} from '../../server/engine/index.js';
import type { JsonRpcNotification, Principal } from '../../server/protocol/index.js';
import { requestMeta } from '../helpers/mcp-http.js';
import { numberTask } from '../helpers/number-task.js';
import { TASK_CLIENT } from '../helpers/tasks.js';
import { testKeyRing } from '../helpers/test-server.js';

/** Counts each kind of read: a whole copy (`get`), a head, a read in place (`peek`). */
class CountingStore extends MemoryTaskStore {
  gets = 0;
  heads = 0;
  peeks = 0;
  override async get(taskId: string): Promise<TaskRecord | undefined> {
    this.gets += 1;
    return super.get(taskId);
  }
  override async head(taskId: string): Promise<TaskHead | undefined> {
    this.heads += 1;
    return super.head(taskId);
  }
  override async peek<T>(taskId: string, read: (record: Readonly<TaskRecord>) => T): Promise<T | undefined> {
    this.peeks += 1;
    return super.peek(taskId, read);
  }
  reset(): void {
    this.gets = this.heads = this.peeks = 0;
  }
}

// A schema that allows a large argument (undeclared strings stop at 4,096 characters).
const task = defineTool({
  ...numberTask,
  scopes: ['deploy:write'],
  inputSchema: { type: 'object', properties: { blob: { type: 'string', maxLength: 1_000_000 } } },
});
const alice: Principal = { id: 'https://issuer.example|alice', authenticated: true, scopes: ['deploy:write'] };
const MAX_TASK_IDS = 64;

describe('subscriptions/listen with repeated and distinct task ids (red team 38.1)', () => {
  let store: CountingStore;
  let service: McpService;
  let nextId = 1;

  beforeEach(() => {
    store = new CountingStore();
    service = createMcpService({ tools: [task], keyRing: testKeyRing(), logger: silentLogger, tasks: { store } });
  });
  afterEach(() => service.close());

  async function createLargeTask(): Promise<string> {
    // ~950 KB of arguments: within the record quota (1 MiB), as the red team's task was.
    const outcome = await service.dispatcher.dispatch(
      {
        jsonrpc: '2.0',
        id: nextId++,
        method: 'tools/call',
        params: { name: task.name, arguments: { blob: 'x'.repeat(950_000) }, _meta: requestMeta(TASK_CLIENT) },
      },
      { principal: alice, cancellation: new Cancellation() },
    );
    if (outcome.type !== 'response' || !('result' in outcome.response)) expect.fail(JSON.stringify(outcome));
    const taskId = (outcome.response.result as { taskId?: string }).taskId;
    if (!taskId) expect.fail(JSON.stringify(outcome.response.result).slice(0, 300));
    return taskId;
  }

  /** Opens the listen, waits for its acknowledgment, then hangs up; resolves with the ids agreed. */
  async function listenOnce(taskIds: string[]): Promise<string[]> {
    const cancellation = new Cancellation();
    let agreed: string[] | undefined;
    let acknowledged!: () => void;
    const ack = new Promise<void>((resolve) => (acknowledged = resolve));
    const outcome = service.dispatcher.dispatch(
      {
        jsonrpc: '2.0',
        id: nextId++,
        method: 'subscriptions/listen',
        params: { notifications: { taskIds }, _meta: requestMeta(TASK_CLIENT) },
      },
      {
        principal: alice,
        cancellation,
        notify: (message) => {
          const notification = message as JsonRpcNotification;
          if (notification.method !== 'notifications/subscriptions/acknowledged') return;
          agreed = (notification.params as { notifications: { taskIds: string[] } }).notifications.taskIds;
          acknowledged();
        },
      },
    );
    await Promise.race([ack, Promise.resolve(outcome)]);
    cancellation.abort();
    await outcome;
    expect(agreed, 'acknowledged').to.not.equal(undefined);
    return agreed!;
  }

  it('looks up one id repeated 2,000 times once, and never copies the record', async () => {
    const taskId = await createLargeTask();
    store.reset();
    const agreed = await listenOnce(Array.from({ length: 2000 }, () => taskId));
    expect(agreed).to.deep.equal([taskId]);
    // The scope check and the stream each ask for the head once; the current state is read in place.
    expect(store.heads).to.be.at.most(2);
    expect(store.peeks).to.be.at.most(2);
    expect(store.gets).to.equal(0);
  });

  it('looks up at most the ids it will follow when the list mixes thousands of distinct and repeated ids', async () => {
    const taskId = await createLargeTask();
    store.reset();
    const strangers = Array.from({ length: 3000 }, () => randomBytes(16).toString('base64url'));
    const ids = [taskId, ...strangers.flatMap((id) => [id, taskId])];
    const agreed = await listenOnce(ids);
    expect(agreed).to.deep.equal([taskId]);
    expect(store.heads).to.be.at.most(2 * MAX_TASK_IDS);
    expect(store.gets).to.equal(0);
  });

  it('answers tasks/get for the large task without a whole copy of its record', async () => {
    const taskId = await createLargeTask();
    store.reset();
    const outcome = await service.dispatcher.dispatch(
      { jsonrpc: '2.0', id: nextId++, method: 'tasks/get', params: { taskId, _meta: requestMeta(TASK_CLIENT) } },
      { principal: alice, cancellation: new Cancellation() },
    );
    if (outcome.type !== 'response' || !('result' in outcome.response)) expect.fail(JSON.stringify(outcome));
    expect((outcome.response.result as { taskId: string }).taskId).to.equal(taskId);
    expect(store.gets).to.equal(0);
  });
});
