/**
 * The conversation runner on its own, over a scripted `send` (a server that answers from a list),
 * so each rule is seen without the engine: retries carry the answers and the sealed state as it
 * came, a task is polled at once after the client changed it and after the poll interval
 * otherwise, and a task the run gives up on is cancelled.
 */
import { expect } from 'chai';
import {
  runRounds,
  type AnswerPolicy,
  type Exchange,
  type RunRoundsOptions,
  type Send,
} from '../../server/simulation/index.js';

/** A result, or `{ rpcError }` for a JSON-RPC error response. */
type Reply = Record<string, unknown>;

/** A `send` that answers each request with the next reply for its method, and records what it was sent. */
function scripted(replies: Record<string, Reply[]>) {
  const sent: Array<{ method: string; params: Record<string, unknown> }> = [];
  let id = 0;
  const send: Send = async (method, params) => {
    sent.push({ method, params });
    const queue = replies[method] ?? [];
    const reply = (queue.length > 1 ? queue.shift() : queue[0]) ?? { rpcError: { code: -32601, message: method } };
    const request = { jsonrpc: '2.0' as const, id: ++id, method, params };
    const response =
      reply.rpcError !== undefined
        ? { jsonrpc: '2.0' as const, id, error: reply.rpcError }
        : { jsonrpc: '2.0' as const, id, result: reply };
    return { request, response } as Exchange;
  };
  return { send, sent };
}

const ASK = (key: string) => ({
  resultType: 'input_required',
  inputRequests: { [key]: { method: 'elicitation/create', params: { message: key } } },
  requestState: `sealed-${key}`,
});
const OK = { content: [{ type: 'text', text: 'done' }] };
const accept: AnswerPolicy = (key) => ({ action: 'accept', content: { [key]: true } });
const CALL: RunRoundsOptions = { method: 'tools/call', params: { name: 't', arguments: { a: 1 } } };

describe('runRounds', () => {
  it('retries with the answers and the requestState as it came, until a result', async () => {
    const { send, sent } = scripted({ 'tools/call': [ASK('first'), ASK('second'), OK] });
    const run = await runRounds(send, accept, CALL);
    expect(run.outcome).to.equal('complete');
    expect(run.ending).to.deep.equal({ result: OK });
    expect(sent.map((s) => s.params)).to.deep.equal([
      { name: 't', arguments: { a: 1 } },
      {
        name: 't',
        arguments: { a: 1 },
        inputResponses: { first: { action: 'accept', content: { first: true } } },
        requestState: 'sealed-first',
      },
      {
        name: 't',
        arguments: { a: 1 },
        inputResponses: { second: { action: 'accept', content: { second: true } } },
        requestState: 'sealed-second',
      },
    ]);
    expect(run.rounds.map((round) => Object.keys(round.answers))).to.deep.equal([['first'], ['second'], []]);
  });

  it('counts how often a question was asked, and stops after maxRounds', async () => {
    const { send } = scripted({ 'tools/call': [ASK('again')] });
    const occurrences: number[] = [];
    const run = await runRounds(
      send,
      (key, _request, occurrence) => {
        occurrences.push(occurrence);
        return { action: 'decline' };
      },
      { ...CALL, maxRounds: 3 },
    );
    expect(run.outcome).to.equal('unfinished');
    expect(run.ending).to.equal(undefined);
    expect(occurrences).to.deep.equal([0, 1, 2]);
  });

  it('ends with a JSON-RPC error as the error', async () => {
    const { send } = scripted({ 'tools/call': [{ rpcError: { code: -32602, message: 'bad' } }] });
    const run = await runRounds(send, accept, CALL);
    expect(run.outcome).to.equal('error');
    expect(run.ending).to.deep.equal({ error: { code: -32602, message: 'bad' } });
  });

  describe('a task', () => {
    const CREATED = { resultType: 'task', taskId: 'T1', status: 'working', pollIntervalMs: 150 };
    const WORKING = { taskId: 'T1', status: 'working' };
    const ASKING = {
      taskId: 'T1',
      status: 'input_required',
      inputRequests: { 'approve.2': { method: 'elicitation/create', params: { message: 'again?' } } },
    };

    it('polls at once after creating or answering it, after the interval otherwise, to its result', async () => {
      const { send, sent } = scripted({
        'tools/call': [CREATED],
        'tasks/get': [WORKING, ASKING, ASKING, { taskId: 'T1', status: 'completed', result: OK }],
        'tasks/update': [{}],
      });
      const asked: unknown[] = [];
      // pollMs is asked only before a wait: which polls waited is seen without timing anything.
      const waitedAfter: unknown[] = [];
      const run = await runRounds(
        send,
        (key, _request, occurrence, where) => {
          asked.push([key, occurrence, where.inputKey, 'taskId' in where.in]);
          return { action: 'accept' };
        },
        {
          ...CALL,
          pollMs: (task) => {
            waitedAfter.push(task.status);
            return 1;
          },
        },
      );
      expect(run).to.include({ outcome: 'complete', taskId: 'T1' });
      expect(run.ending).to.deep.equal({ result: OK });
      expect(sent.map((s) => s.method)).to.deep.equal([
        'tools/call',
        'tasks/get',
        'tasks/get',
        'tasks/update',
        'tasks/get',
        'tasks/get',
      ]);
      // `approve.2` is the question `approve` asked again: answered once, under its question key.
      expect(asked).to.deep.equal([['approve', 0, 'approve.2', true]]);
      expect(waitedAfter).to.deep.equal(['working', 'input_required']);
      expect(run.rounds[2]!.answers).to.deep.equal({ 'approve.2': { action: 'accept' } });
    });

    it('ends with a failed task as its error, and one cancelled elsewhere as cancelled', async () => {
      const error = { code: -32603, message: 'broke' };
      const failed = await runRounds(
        scripted({ 'tools/call': [CREATED], 'tasks/get': [{ taskId: 'T1', status: 'failed', error }] }).send,
        accept,
        CALL,
      );
      expect(failed).to.deep.include({ outcome: 'complete', ending: { error } });
      const cancelled = await runRounds(
        scripted({ 'tools/call': [CREATED], 'tasks/get': [{ taskId: 'T1', status: 'cancelled' }] }).send,
        accept,
        CALL,
      );
      expect(cancelled).to.deep.include({ outcome: 'complete', ending: { cancelled: true } });
    });

    it('counts its tools/call and each tasks/update as rounds: past maxRounds, cancelled and unfinished', async () => {
      // A task that keeps asking again (an answer the server refuses each time): a fresh key each time.
      const again = (key: string) => ({ ...ASKING, inputRequests: { [key]: ASKING.inputRequests['approve.2'] } });
      const { send, sent } = scripted({
        'tools/call': [CREATED],
        'tasks/get': ['approve', 'approve.2', 'approve.3', 'approve.4'].map(again),
        'tasks/update': [{}],
        'tasks/cancel': [{}],
      });
      const asked: unknown[] = [];
      const cancelled: unknown[] = [];
      const run = await runRounds(
        send,
        (key, _request, occurrence) => {
          asked.push([key, occurrence]);
          return { action: 'accept' };
        },
        { ...CALL, maxRounds: 3, observer: { taskCancelled: (taskId, why) => cancelled.push([taskId, why]) } },
      );
      expect(run.outcome).to.equal('unfinished');
      expect(sent.map((s) => s.method)).to.deep.equal([
        'tools/call',
        'tasks/get',
        'tasks/update',
        'tasks/get',
        'tasks/update',
        'tasks/get',
        'tasks/cancel',
      ]);
      // As a synchronous flow's last questions: answered by the policy, not sent.
      expect(asked).to.deep.equal([
        ['approve', 0],
        ['approve', 1],
        ['approve', 2],
      ]);
      expect(cancelled).to.deep.equal([['T1', 'maxRounds']]);
    });

    it('cancels the task when interrupted, and says why', async () => {
      const { send, sent } = scripted({ 'tools/call': [CREATED], 'tasks/get': [WORKING], 'tasks/cancel': [{}] });
      const abort = new AbortController();
      const cancelled: unknown[] = [];
      const running = runRounds(send, accept, {
        ...CALL,
        signal: abort.signal,
        pollMs: () => 10_000,
        observer: { taskCancelled: (taskId, why) => cancelled.push([taskId, why]) },
      });
      while (!sent.some((s) => s.method === 'tasks/get')) await new Promise((resolve) => setTimeout(resolve, 5));
      abort.abort();
      const run = await running;
      expect(run.outcome).to.equal('interrupted');
      expect(sent.at(-1)).to.deep.include({ method: 'tasks/cancel', params: { taskId: 'T1' } });
      expect(cancelled).to.deep.equal([['T1', 'interrupted']]);
    });

    it('cancels the task when the answer policy fails, then throws what it threw', async () => {
      const { send, sent } = scripted({ 'tools/call': [CREATED], 'tasks/get': [ASKING], 'tasks/cancel': [{}] });
      const failure = new Error('no answer for approve.2');
      const run = runRounds(
        send,
        () => {
          throw failure;
        },
        CALL,
      );
      await run.then(
        () => expect.fail('should throw'),
        (error: unknown) => expect(error).to.equal(failure),
      );
      expect(sent.at(-1)?.method).to.equal('tasks/cancel');
    });
  });
});
