import { expect } from 'chai';
import { conformanceFixtures } from '../../machines/conformance/index.js';
import { callTool, postRaw, requestMeta, rpc, standardHeaders } from '../helpers/mcp-http.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

/**
 * Prompts, resources, completion, progress and capability fallbacks, driven over real HTTP with
 * the conformance fixtures (the suite itself runs in `npm run conformance`).
 */
describe('prompts, resources, completion and progress over HTTP', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({ ...conformanceFixtures() });
  });
  after(() => server.close());

  const ok = (response: { status: number; body: any }) => {
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(response.body.error, JSON.stringify(response.body.error)).to.equal(undefined);
    return response.body.result;
  };

  it('advertises prompts, resources, completions and the tasks extension in discover', async () => {
    const result = ok(await rpc(server.url, 'server/discover'));
    expect(result.capabilities).to.have.keys('tools', 'prompts', 'resources', 'completions', 'extensions');
    expect(result.capabilities.extensions).to.deep.equal({ 'io.modelcontextprotocol/tasks': {} });
  });

  describe('prompts', () => {
    it('lists prompts with descriptions and arguments, with caching hints', async () => {
      const result = ok(await rpc(server.url, 'prompts/list'));
      const names = result.prompts.map((p: { name: string }) => p.name);
      expect(names).to.include.members(['test_simple_prompt', 'test_prompt_with_arguments']);
      expect(names).to.deep.equal([...names].sort());
      const withArgs = result.prompts.find((p: { name: string }) => p.name === 'test_prompt_with_arguments');
      expect(withArgs.arguments).to.deep.equal([
        { name: 'arg1', description: 'First argument', required: true },
        { name: 'arg2', description: 'Second argument', required: true },
      ]);
      expect(result).to.include({ cacheScope: 'public' });
    });

    it('gets a prompt built from its arguments', async () => {
      const result = ok(
        await rpc(server.url, 'prompts/get', {
          name: 'test_prompt_with_arguments',
          arguments: { arg1: 'x1', arg2: 'y2' },
        }),
      );
      expect(result.resultType).to.equal('complete');
      expect(result.messages[0]).to.deep.equal({
        role: 'user',
        content: { type: 'text', text: "Prompt with arguments: arg1='x1', arg2='y2'" },
      });
      expect(result).not.to.have.property('ttlMs');
    });

    it('refuses an unknown prompt, a missing argument and a non-string one (declared or not) with -32602', async () => {
      const args = { arg1: 'x', arg2: 'y' };
      for (const params of [
        { name: 'nope' },
        { name: 'test_prompt_with_arguments', arguments: { arg1: 'x' } },
        { name: 'test_prompt_with_arguments', arguments: { ...args, arg2: 2 } },
        { name: 'test_prompt_with_arguments', arguments: { ...args, extra: { deep: true } } },
      ]) {
        const response = await rpc(server.url, 'prompts/get', params);
        expect(response.body.error.code).to.equal(-32602);
      }
    });

    it('asks for input before building a prompt, bound to prompts/get and the prompt name', async () => {
      const r1 = ok(await rpc(server.url, 'prompts/get', { name: 'test_input_required_result_prompt' }));
      expect(r1.resultType).to.equal('input_required');
      expect(Object.keys(r1.inputRequests)).to.deep.equal(['user_context']);
      const answers = { user_context: { action: 'accept', content: { context: 'release notes' } } };
      const r2 = ok(
        await rpc(server.url, 'prompts/get', {
          name: 'test_input_required_result_prompt',
          requestState: r1.requestState,
          inputResponses: answers,
        }),
      );
      expect(r2.messages[0].content.text).to.include('release notes');
      // The same state presented to a tool call is refused: the method is bound into it.
      const misdirected = await callTool(
        server.url,
        'test_input_required_result_elicitation',
        {},
        {
          requestState: r1.requestState,
          inputResponses: answers,
        },
      );
      expect(misdirected.body.error.code).to.equal(-32602);
    });
  });

  describe('resources', () => {
    it('lists resources and templates with caching hints', async () => {
      const list = ok(await rpc(server.url, 'resources/list'));
      expect(list.resources.map((r: { uri: string }) => r.uri)).to.deep.equal([
        'test://static-binary',
        'test://static-text',
        'test://watched-resource',
      ]);
      expect(list.ttlMs).to.be.a('number');
      const templates = ok(await rpc(server.url, 'resources/templates/list'));
      expect(templates.resourceTemplates[0]).to.include({
        uriTemplate: 'test://template/{id}/data',
        mimeType: 'application/json',
      });
      expect(templates.cacheScope).to.equal('public');
    });

    it('reads text, binary and templated resources with caching hints', async () => {
      const text = ok(await rpc(server.url, 'resources/read', { uri: 'test://static-text' }));
      expect(text.contents[0]).to.include({ uri: 'test://static-text', mimeType: 'text/plain' });
      expect(text).to.include({ resultType: 'complete', cacheScope: 'public' });
      const binary = ok(await rpc(server.url, 'resources/read', { uri: 'test://static-binary' }));
      expect(binary.contents[0].blob).to.be.a('string');
      expect(binary.contents[0]).not.to.have.property('text');
      const templated = ok(await rpc(server.url, 'resources/read', { uri: 'test://template/42/data' }));
      expect(JSON.parse(templated.contents[0].text)).to.include({ id: '42' });
      expect(templated.contents[0].uri).to.equal('test://template/42/data');
    });

    it('answers a missing resource with -32602 and the uri in data, never empty contents', async () => {
      const response = await rpc(server.url, 'resources/read', { uri: 'test://missing' }, { id: 'r1' });
      expect(response.body.id).to.equal('r1');
      expect(response.body.error.code).to.equal(-32602);
      expect(response.body.error.data).to.deep.equal({ uri: 'test://missing' });
    });

    it('checks Mcp-Name against the uri on resources/read', async () => {
      const response = await rpc(
        server.url,
        'resources/read',
        { uri: 'test://static-text' },
        { headers: { 'mcp-name': 'test://other' } },
      );
      expect(response.status).to.equal(400);
      expect(response.body.error.code).to.equal(-32020);
    });
  });

  describe('completion/complete', () => {
    it('completes a prompt argument from its declared values', async () => {
      const result = ok(
        await rpc(server.url, 'completion/complete', {
          ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
          argument: { name: 'arg1', value: 'testV' },
        }),
      );
      expect(result.completion).to.deep.equal({ values: ['testValue1'], total: 1, hasMore: false });
    });

    it('completes a resource template variable', async () => {
      const result = ok(
        await rpc(server.url, 'completion/complete', {
          ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
          argument: { name: 'id', value: '4' },
        }),
      );
      expect(result.completion.values).to.deep.equal(['456']);
    });

    it('refuses an unknown prompt or argument with -32602', async () => {
      for (const ref of [{ type: 'ref/prompt', name: 'nope' }, { type: 'ref/other' }]) {
        const response = await rpc(server.url, 'completion/complete', { ref, argument: { name: 'arg1', value: '' } });
        expect(response.body.error.code).to.equal(-32602);
      }
    });

    it('refuses context.arguments that are not a map of strings with -32602', async () => {
      const ref = { type: 'ref/prompt', name: 'test_prompt_with_arguments' };
      for (const context of [{ arguments: ['x'] }, { arguments: { arg2: 7 } }, { arguments: 'arg2=x' }]) {
        const response = await rpc(server.url, 'completion/complete', {
          ref,
          argument: { name: 'arg1', value: '' },
          context,
        });
        expect(response.body.error?.code, JSON.stringify(context)).to.equal(-32602);
      }
    });
  });

  describe('progress', () => {
    it('streams increasing progress as SSE before the result when a progressToken is sent', async () => {
      const message = {
        jsonrpc: '2.0',
        id: 'p',
        method: 'tools/call',
        params: { name: 'test_tool_with_progress', _meta: requestMeta({}, { progressToken: 'tok-1' }) },
      };
      const response = await postRaw(server.url, JSON.stringify(message), standardHeaders(message));
      expect(response.headers.get('content-type')).to.match(/^text\/event-stream/);
      const events = response.text
        .split('\n\n')
        .filter((chunk) => chunk.startsWith('data: '))
        .map((chunk) => JSON.parse(chunk.slice(6)));
      const progress = events.filter((e) => e.method === 'notifications/progress');
      expect(progress.map((e) => e.params.progress)).to.deep.equal([0, 50, 100]);
      expect(progress.every((e) => e.params.progressToken === 'tok-1')).to.equal(true);
      expect(events.at(-1)).to.include({ id: 'p' });
      expect(events.at(-1).result.resultType).to.equal('complete');
    });

    it('answers plain JSON without a progressToken', async () => {
      const response = await callTool(server.url, 'test_tool_with_progress', {});
      expect(response.headers.get('content-type')).to.match(/^application\/json/);
      expect(response.body.result.content[0].text).to.equal('Progress test completed.');
    });
  });

  describe('capability fallbacks', () => {
    it('asks only what a sampling-only client can answer', async () => {
      const response = await callTool(
        server.url,
        'test_input_required_result_capabilities',
        {},
        {},
        { capabilities: { sampling: {} } },
      );
      const result = ok(response);
      expect(Object.keys(result.inputRequests)).to.deep.equal(['model_opinion']);
      expect(result.inputRequests.model_opinion.method).to.equal('sampling/createMessage');
    });

    it('finishes without asking when the client can answer nothing the tool could skip', async () => {
      const result = ok(
        await callTool(server.url, 'test_input_required_result_capabilities', {}, {}, { capabilities: {} }),
      );
      expect(result.resultType).to.equal('complete');
    });

    it('refuses with -32021 {sampling:{}} when a question has no fallback', async () => {
      const response = await callTool(server.url, 'test_missing_capability', {}, {}, { capabilities: {} });
      expect(response.status).to.equal(400);
      expect(response.body.error.code).to.equal(-32021);
      expect(response.body.error.data).to.deep.equal({ requiredCapabilities: { sampling: {} } });
    });
  });

  describe('sampling and roots answers', () => {
    it('feeds a CreateMessageResult and a ListRootsResult back into the machine', async () => {
      const caps = { capabilities: { sampling: {}, roots: {}, elicitation: {} } };
      const r1 = ok(await callTool(server.url, 'test_input_required_result_multiple_inputs', {}, {}, caps));
      expect(Object.keys(r1.inputRequests)).to.deep.equal(['user_name', 'greeting', 'client_roots']);
      expect(r1.inputRequests.greeting.params.maxTokens).to.equal(50);
      expect(r1.inputRequests.client_roots).to.deep.equal({ method: 'roots/list', params: {} });
      const r2 = ok(
        await callTool(
          server.url,
          'test_input_required_result_multiple_inputs',
          {},
          {
            requestState: r1.requestState,
            inputResponses: {
              user_name: { action: 'accept', content: { name: 'Ada' } },
              greeting: { role: 'assistant', content: { type: 'text', text: 'Hi' }, model: 'm', stopReason: 'endTurn' },
              client_roots: { roots: [{ uri: 'file:///work', name: 'work' }] },
            },
          },
          caps,
        ),
      );
      expect(r2.resultType).to.equal('complete');
    });

    it('refuses a malformed sampling answer with -32602', async () => {
      const caps = { capabilities: { sampling: {} } };
      const r1 = ok(await callTool(server.url, 'test_input_required_result_sampling', {}, {}, caps));
      const response = await callTool(
        server.url,
        'test_input_required_result_sampling',
        {},
        { requestState: r1.requestState, inputResponses: { sample_request: { text: 'Paris' } } },
        caps,
      );
      expect(response.body.error.code).to.equal(-32602);
    });
  });
});
