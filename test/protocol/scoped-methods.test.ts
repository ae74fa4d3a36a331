/**
 * Scopes per tool, prompt and resource, at the dispatcher (no transport): what a principal with
 * scopes sees in each list, which requests are refused before anything runs, and what the
 * refusal says. Icons and `_meta` ride along in the same lists.
 */
import { expect } from 'chai';
import { createMcpService, type McpService } from '../../server/create-mcp-service.js';
import {
  Cancellation,
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  respondWith,
  silentLogger,
} from '../../server/engine/index.js';
import type { Dispatched, Principal } from '../../server/protocol/index.js';
import { requestMeta } from '../helpers/mcp-http.js';
import { numberTask } from '../helpers/number-task.js';
import { TASK_CLIENT } from '../helpers/tasks.js';
import { testKeyRing } from '../helpers/test-server.js';

const ICON = { src: 'https://cdn.example.com/deploy.png', mimeType: 'image/png', sizes: ['48x48'] };

const deploy = defineTool({
  name: 'deploy',
  description: 'Deploys.',
  inputSchema: { type: 'object' },
  scopes: ['deploy:write', 'audit:write'],
  icons: [ICON],
  _meta: { 'com.example/owner': 'platform' },
  machine: respondWith('deploy', () => 'deployed'),
});
const open = defineTool({
  name: 'open',
  description: 'Anyone may call it.',
  inputSchema: { type: 'object' },
  machine: respondWith('open', () => 'open'),
});
const prompt = definePrompt({
  name: 'incident',
  description: 'An incident report.',
  arguments: [{ name: 'service', completions: ['billing', 'search'] }],
  scopes: ['incidents:read'],
  icons: [{ src: 'data:image/png;base64,iVBORw0KGgo=' }],
  _meta: { note: 'internal' },
  machine: respondWith('incident', () => ({ messages: [] })),
});
const doc = defineResource({
  uri: 'docs://runbook',
  name: 'runbook',
  scopes: ['docs:read'],
  icons: [ICON],
  machine: respondWith('runbook', () => 'text'),
});
const page = defineResourceTemplate({
  uriTemplate: 'docs://pages/{id}',
  name: 'page',
  scopes: ['docs:read'],
  _meta: { 'com.example/kind': 'page' },
  completions: { id: ['intro'] },
  machine: respondWith('page', () => 'text'),
});
const task = defineTool({ ...numberTask, scopes: ['deploy:write'] });

const holder = (scopes?: string[]): Principal => ({
  id: 'https://issuer.example|alice',
  authenticated: true,
  ...(scopes ? { scopes } : {}),
});

describe('scopes per tool, prompt and resource (dispatcher)', () => {
  let service: McpService;
  let nextId = 1;

  before(() => {
    service = createMcpService({
      tools: [deploy, open, task],
      prompts: [prompt],
      resources: [doc, page],
      keyRing: testKeyRing(),
      logger: silentLogger,
      scopeHierarchy: { admin: ['deploy:write', 'audit:write'] },
    });
  });
  after(() => service.close());

  function send(
    method: string,
    params: Record<string, unknown>,
    principal: Principal,
    capabilities: Record<string, unknown> = {},
  ): Dispatched | Promise<Dispatched> {
    return service.dispatcher.dispatch(
      { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: requestMeta(capabilities) } },
      { principal, cancellation: new Cancellation() },
    );
  }

  async function result(method: string, params: Record<string, unknown>, principal: Principal, caps = {}) {
    const outcome = await send(method, params, principal, caps);
    if (outcome.type !== 'response' || !('result' in outcome.response)) {
      expect.fail(`expected a result, got ${JSON.stringify(outcome)}`);
    }
    return outcome.response.result as Record<string, any>;
  }

  async function refusal(method: string, params: Record<string, unknown>, principal: Principal, caps = {}) {
    const outcome = await send(method, params, principal, caps);
    if (outcome.type !== 'response' || !('error' in outcome.response)) {
      expect.fail(`expected a refusal, got ${JSON.stringify(outcome)}`);
    }
    return { ...outcome, error: outcome.response.error as { code: number; data?: unknown } };
  }

  describe('lists', () => {
    it('show a principal only what its scopes cover, as private results', async () => {
      const none = holder([]);
      const tools = await result('tools/list', {}, none);
      expect(tools.tools.map((t: { name: string }) => t.name)).to.deep.equal(['open']);
      expect(tools.cacheScope).to.equal('private');
      expect((await result('prompts/list', {}, none)).prompts).to.deep.equal([]);
      expect((await result('resources/list', {}, none)).resources).to.deep.equal([]);
      expect((await result('resources/templates/list', {}, none)).resourceTemplates).to.deep.equal([]);

      const reader = holder(['docs:read', 'incidents:read']);
      expect((await result('resources/list', {}, reader)).resources).to.have.length(1);
      expect((await result('prompts/list', {}, reader)).prompts).to.have.length(1);
    });

    it('show everything to a principal without scopes (static token, stdio, no auth)', async () => {
      const tools = await result('tools/list', {}, { id: 'anonymous', authenticated: false });
      expect(tools.tools.map((t: { name: string }) => t.name)).to.deep.equal(['deploy', 'number-task', 'open']);
      expect(tools.cacheScope).to.equal('public');
    });

    it('carry icons and _meta as the schema allows', async () => {
      const everyone = holder(['admin', 'docs:read', 'incidents:read']);
      const [listed] = (await result('tools/list', {}, everyone)).tools;
      expect(listed).to.deep.include({ name: 'deploy', icons: [ICON], _meta: { 'com.example/owner': 'platform' } });
      const [listedPrompt] = (await result('prompts/list', {}, everyone)).prompts;
      expect(listedPrompt).to.deep.include({ icons: [{ src: 'data:image/png;base64,iVBORw0KGgo=' }] });
      expect(listedPrompt._meta).to.deep.equal({ note: 'internal' });
      const [resource] = (await result('resources/list', {}, everyone)).resources;
      expect(resource.icons).to.deep.equal([ICON]);
      const [template] = (await result('resources/templates/list', {}, everyone)).resourceTemplates;
      expect(template._meta).to.deep.equal({ 'com.example/kind': 'page' });
      expect(template).to.not.have.property('scopes');
    });
  });

  describe('requests', () => {
    it('refuse a tool call naming every scope the tool needs, with HTTP 403', async () => {
      const refused = await refusal('tools/call', { name: 'deploy', arguments: {} }, holder(['deploy:write']));
      expect(refused.httpStatus).to.equal(403);
      expect(refused.insufficientScope).to.deep.equal(['deploy:write', 'audit:write']);
      expect(refused.error.code).to.equal(-32600);
      expect(refused.error.data).to.deep.equal({
        reason: 'insufficient_scope',
        scopes: ['deploy:write', 'audit:write'],
      });
    });

    it('let a broader scope stand for the narrower ones (scopeHierarchy)', async () => {
      const done = await result('tools/call', { name: 'deploy', arguments: {} }, holder(['admin']));
      expect(done.content[0].text).to.equal('deployed');
    });

    it('refuse prompts/get, resources/read and completion/complete on scoped entries', async () => {
      const none = holder([]);
      expect((await refusal('prompts/get', { name: 'incident' }, none)).insufficientScope).to.deep.equal([
        'incidents:read',
      ]);
      expect((await refusal('resources/read', { uri: 'docs://runbook' }, none)).insufficientScope).to.deep.equal([
        'docs:read',
      ]);
      expect((await refusal('resources/read', { uri: 'docs://pages/intro' }, none)).insufficientScope).to.deep.equal([
        'docs:read',
      ]);
      const complete = (ref: Record<string, unknown>, name: string) =>
        refusal('completion/complete', { ref, argument: { name, value: '' } }, none);
      expect((await complete({ type: 'ref/prompt', name: 'incident' }, 'service')).insufficientScope).to.deep.equal([
        'incidents:read',
      ]);
      expect(
        (await complete({ type: 'ref/resource', uri: 'docs://pages/{id}' }, 'id')).insufficientScope,
      ).to.deep.equal(['docs:read']);
    });

    it('leave unknown names to the handler (-32602), as without scopes', async () => {
      const refused = await refusal('tools/call', { name: 'nope', arguments: {} }, holder([]));
      expect(refused.error.code).to.equal(-32602);
      expect(refused.insufficientScope).to.equal(undefined);
    });

    it('refuse tasks/get, tasks/update, tasks/cancel and listen for a task whose tool needs scopes', async () => {
      const created = await result(
        'tools/call',
        { name: 'number-task', arguments: {} },
        holder(['deploy:write']),
        TASK_CLIENT,
      );
      const taskId = created.taskId as string;
      // The same principal, now with a token that lost the scope.
      const downgraded = holder([]);
      for (const [method, params] of [
        ['tasks/get', { taskId }],
        ['tasks/update', { taskId, inputResponses: {} }],
        ['tasks/cancel', { taskId }],
        ['subscriptions/listen', { notifications: { taskIds: [taskId] } }],
      ] as const) {
        const refused = await refusal(method, params, downgraded, TASK_CLIENT);
        expect(refused.insufficientScope, method).to.deep.equal(['deploy:write']);
      }
      expect((await result('tasks/get', { taskId }, holder(['deploy:write']), TASK_CLIENT)).taskId).to.equal(taskId);
    });
  });
});
