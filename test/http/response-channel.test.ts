import { expect } from 'chai';
import type { Context } from 'koa';
import { MAX_UNREAD_BYTES, ResponseChannel } from '../../server/http/response-channel.js';
import { PreparedNotification } from '../../server/protocol/index.js';

/** A response that records what is written, with as many bytes waiting unread as a test says. */
function fakeContext(unread: number) {
  const written: Array<string | Buffer> = [];
  const res = {
    destroyed: false,
    writableEnded: false,
    writableLength: unread,
    writeHead() {},
    write(chunk: string | Buffer) {
      written.push(chunk);
      return true;
    },
    destroy() {
      this.destroyed = true;
    },
  };
  return { ctx: { res, respond: true } as unknown as Context, res, written };
}

describe('ResponseChannel', () => {
  it('writes a prepared notification as one SSE event whose data is the whole message', () => {
    const { ctx, written } = fakeContext(0);
    const task = { taskId: 't', status: 'working' };
    const json = JSON.stringify(task);
    new ResponseChannel(ctx).notify(
      new PreparedNotification('notifications/tasks', { sub: 1 }, { json, bytes: () => Buffer.from(json) }),
    );
    const text = written.map((chunk) => chunk.toString()).join('');
    expect(text.startsWith('data: ') && text.endsWith('\n\n')).to.equal(true);
    expect(JSON.parse(text.slice(6))).to.deep.equal({
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: { _meta: { sub: 1 }, taskId: 't', status: 'working' },
    });
  });

  it('cuts off a client that leaves more than the unread limit on its stream', () => {
    const { ctx, res, written } = fakeContext(MAX_UNREAD_BYTES + 1);
    new ResponseChannel(ctx).notify({ jsonrpc: '2.0', method: 'notifications/progress', params: {} });
    expect(res.destroyed).to.equal(true);
    expect(written).to.deep.equal([]);
  });
});
