/**
 * `serve()` (baton-mcp/server) behaves as `baton serve`: the settings from the environment, a
 * development key with the loud warning when there is no key, the in-memory tasks warning, a
 * `listening` line, and options that win over the environment.
 */
import { expect } from 'chai';
import { generateKeyEntry, parseKeyRing } from '../server/index.js';
import { serve, type Serving } from '../server/serve.js';
import { ConfigurationError, defineTool, respondWith, type Logger } from '../server/engine/index.js';
import { requestMeta, standardHeaders } from './helpers/mcp-http.js';
import { numberTask } from './helpers/number-task.js';

const hello = defineTool({
  name: 'hello',
  description: 'Says hello.',
  inputSchema: { type: 'object' },
  machine: respondWith('hello', () => 'hello'),
});

function recordingLogger() {
  const events: Array<{ level: string; event: string; fields?: Record<string, unknown> }> = [];
  const logger: Logger = {
    info: (event, fields) => events.push({ level: 'info', event, ...(fields ? { fields } : {}) }),
    warn: (event, fields) => events.push({ level: 'warn', event, ...(fields ? { fields } : {}) }),
    error: (event, fields) => events.push({ level: 'error', event, ...(fields ? { fields } : {}) }),
  };
  return { logger, events, named: (event: string) => events.filter((e) => e.event === event) };
}

async function listTools(url: string, headers: Record<string, string> = {}): Promise<Response> {
  const message = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: requestMeta() } };
  return fetch(url, {
    method: 'POST',
    headers: { ...standardHeaders(message), ...headers },
    body: JSON.stringify(message),
  });
}

describe('serve()', () => {
  let serving: Serving | undefined;
  afterEach(async () => {
    await serving?.close();
    serving = undefined;
  });

  it('without a key ring or BATON_KEYS, serves with a development key and warns loudly', async () => {
    const log = recordingLogger();
    serving = await serve({ tools: [hello], port: 0, env: {}, logger: log.logger });
    expect(log.named('development_key')).to.have.length(1);
    expect(log.named('development_key')[0]!.fields!.message).to.include('BATON_KEYS is not set');
    expect((await listTools(serving.url)).status).to.equal(200);
  });

  it('says where it listens, and which tools it serves', async () => {
    const log = recordingLogger();
    serving = await serve({ tools: [hello], port: 0, env: {}, logger: log.logger });
    const [listening] = log.named('listening');
    expect(listening!.fields).to.include({ url: serving.url });
    expect(listening!.fields!.tools).to.deep.equal(['hello']);
  });

  it('warns that tasks are kept in memory when a tool can run as a task and there is no Redis', async () => {
    const log = recordingLogger();
    serving = await serve({ tools: [hello, numberTask], port: 0, env: {}, logger: log.logger });
    expect(log.named('tasks_in_memory')).to.have.length(1);
    await serving.close();
    const quiet = recordingLogger();
    serving = await serve({ tools: [hello], port: 0, env: {}, logger: quiet.logger });
    expect(quiet.named('tasks_in_memory')).to.have.length(0);
  });

  it('warns that single use is per instance when it was given keys and has no shared guard', async () => {
    const once = defineTool({ ...hello, name: 'once', singleUse: true });
    const keys = { BATON_KEYS: generateKeyEntry('k1') };
    const log = recordingLogger();
    serving = await serve({ tools: [hello, once], port: 0, env: keys, logger: log.logger });
    expect(log.named('single_use_per_instance')).to.have.length(1);
    expect(log.named('single_use_per_instance')[0]!.fields!.message).to.include('Tools: once');
    await serving.close();
    // A lone development server (no keys), or tools without single use, say nothing.
    for (const [tools, env] of [
      [[hello, once], {}],
      [[hello], keys],
    ] as const) {
      const quiet = recordingLogger();
      serving = await serve({ tools: [...tools], port: 0, env, logger: quiet.logger });
      expect(quiet.named('single_use_per_instance')).to.have.length(0);
      await serving.close();
    }
    serving = undefined;
  });

  it('takes its settings from the environment as `baton serve` does: the key, tokens, limits', async () => {
    const log = recordingLogger();
    serving = await serve({
      tools: [hello],
      port: 0,
      logger: log.logger,
      env: { BATON_KEYS: generateKeyEntry('k1'), BATON_TOKENS: 'ada:serve-test-token-0123456789' },
    });
    expect(log.named('development_key')).to.have.length(0);
    expect((await listTools(serving.url)).status).to.equal(401);
    expect((await listTools(serving.url, { authorization: 'Bearer serve-test-token-0123456789' })).status).to.equal(
      200,
    );
  });

  it('lets an option win over the environment', async () => {
    const log = recordingLogger();
    serving = await serve({
      tools: [hello],
      port: 0,
      logger: log.logger,
      env: { BATON_TOKENS: 'ada:serve-test-token-0123456789' },
      keyRing: parseKeyRing(generateKeyEntry('k1')),
      authenticate: async () => ({ id: 'anyone', authenticated: true }),
    });
    expect(log.named('development_key')).to.have.length(0);
    expect((await listTools(serving.url)).status).to.equal(200);
  });

  it('parseKeyRing(undefined) (BATON_KEYS unset) is a configuration error that says what to do', () => {
    expect(() => parseKeyRing(undefined)).to.throw(ConfigurationError, /BATON_KEYS is not set/);
  });
});
