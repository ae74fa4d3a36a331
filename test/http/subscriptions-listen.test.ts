/**
 * subscriptions/listen on Streamable HTTP (spec, basic/patterns/subscriptions): an SSE stream
 * whose first message is the acknowledgment, tagged with the subscription id, then a graceful end.
 */
import { expect } from 'chai';
import { postRaw, requestMeta, standardHeaders } from '../helpers/mcp-http.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

describe('subscriptions/listen over HTTP', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const listen = (id: unknown, notifications: unknown) => {
    const message = {
      jsonrpc: '2.0',
      id,
      method: 'subscriptions/listen',
      params: { _meta: requestMeta(), notifications },
    };
    return postRaw(server.url, JSON.stringify(message), standardHeaders(message));
  };

  it('acknowledges first with the subscription id and no notification type honoured, then ends gracefully', async () => {
    const response = await listen(7, { toolsListChanged: true, resourceSubscriptions: ['test://static-text'] });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^text\/event-stream/);
    const events = response.text
      .split('\n\n')
      .filter((chunk) => chunk.startsWith('data: '))
      .map((chunk) => JSON.parse(chunk.slice(6)));
    expect(events).to.have.length(2);
    expect(events[0]).to.deep.equal({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { [SUBSCRIPTION_ID]: 7 }, notifications: {} },
    });
    expect(events[1].id).to.equal(7);
    expect(events[1].result.resultType).to.equal('complete');
    expect(events[1].result._meta[SUBSCRIPTION_ID]).to.equal(7);
  });

  it('refuses a malformed filter with -32602 before opening a stream', async () => {
    for (const notifications of ['all', { toolsListChanged: 'yes' }, { resourceSubscriptions: 'test://x' }]) {
      const response = await listen(8, notifications);
      expect(response.headers.get('content-type'), JSON.stringify(notifications)).to.match(/^application\/json/);
      expect(response.body.error.code).to.equal(-32602);
    }
  });
});
