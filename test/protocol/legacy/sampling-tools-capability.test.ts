/**
 * 2025-11-25 sessions and `sampling.tools` (schema 2025-11-25, ClientCapabilities): a sampling
 * request that offers tools (or a toolChoice) may go only to a client that declared
 * `sampling.tools`; `sampling` alone covers plain sampling. What a session keeps of `initialize`
 * (session-capabilities.ts), what its sealed id carries to another instance, and what a call then
 * asks must keep the two apart: a client that cannot run tools must never be sent them.
 */
import { expect } from 'chai';
import { defineTool } from '../../../server/engine/index.js';
import { sessionCapabilities } from '../../../server/protocol/legacy/session-capabilities.js';
import { assistantTool } from '../../engine/fixtures/machines.js';
import { initializeSession, sessionClient, type LegacySessionClient } from '../../helpers/legacy-http.js';
import { startTestServer, testKeyRing, type RunningServer } from '../../helpers/test-server.js';

const LOOKUP = { name: 'lookup', description: 'Looks a word up.', inputSchema: { type: 'object' } };
const plain = assistantTool();
const withTools = defineTool({
  ...assistantTool({ tools: [LOOKUP], toolChoice: { mode: 'auto' } }),
  name: 'assistant-tools',
});

describe('2025-11-25 sessions: sampling with tools needs sampling.tools', () => {
  describe('what a session keeps of initialize', () => {
    it('keeps sampling.tools only when the client declared it', () => {
      expect(sessionCapabilities({ sampling: {} })).to.deep.equal({ sampling: {} });
      expect(sessionCapabilities({ sampling: { context: {} } })).to.deep.equal({ sampling: {} });
      expect(sessionCapabilities({ sampling: { tools: true } })).to.deep.equal({ sampling: {} });
      expect(sessionCapabilities({ sampling: { tools: {} } })).to.deep.equal({ sampling: { tools: {} } });
      expect(sessionCapabilities({ elicitation: {} })).to.not.have.property('sampling');
    });
  });

  describe('over HTTP', () => {
    const keyRing = testKeyRing();
    let a: RunningServer;
    let b: RunningServer;
    before(async () => {
      const options = { keyRing, tools: [plain, withTools], legacy: { answerTimeoutMs: 2_000 } };
      a = await startTestServer(options);
      b = await startTestServer(options);
    });
    after(async () => {
      await a.close();
      await b.close();
    });

    const session = async (capabilities: Record<string, unknown>) =>
      (await initializeSession(a.url, capabilities)).client;

    /** The first message a call's answer carries, and the stream closed. */
    async function firstMessage(client: LegacySessionClient, name: string) {
      const stream = await client.stream('tools/call', { name, arguments: { topic: 'tides' } });
      const first = await stream.next();
      stream.abort();
      return first;
    }

    const expectRefusedForTools = (message: any) => {
      expect(message?.method, 'no sampling request reaches the client').to.equal(undefined);
      expect(message.error.code).to.equal(-32021);
      expect(message.error.data).to.deep.equal({ requiredCapabilities: { sampling: { tools: {} } } });
    };

    it('refuses a call that would sample with tools from a client that declared sampling alone (-32021)', async () => {
      const client = await session({ sampling: {}, roots: {} });
      expectRefusedForTools(await firstMessage(client, 'assistant-tools'));
      // Plain sampling is what `sampling` covers: that call asks.
      const asked = await firstMessage(client, 'assistant');
      expect(asked.method).to.equal('sampling/createMessage');
      expect(asked.params).to.not.have.property('tools');
    });

    it('keeps the difference in the sealed session id: another instance refuses it too', async () => {
      const { client } = await initializeSession(a.url, { sampling: {}, roots: {} });
      const elsewhere = sessionClient(b.url, client.sessionId);
      expectRefusedForTools(await firstMessage(elsewhere, 'assistant-tools'));
    });

    it('sends the tools to a client that declared sampling.tools', async () => {
      const client = await session({ sampling: { tools: {} }, roots: {} });
      const asked = await firstMessage(client, 'assistant-tools');
      expect(asked.method).to.equal('sampling/createMessage');
      expect(asked.params.tools).to.deep.equal([LOOKUP]);
      expect(asked.params.toolChoice).to.deep.equal({ mode: 'auto' });
    });
  });
});
