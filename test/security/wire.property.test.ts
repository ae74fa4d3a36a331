import { expect } from 'chai';
import fc from 'fast-check';
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { createConnectPaymentsTool } from '../../machines/examples/connect-payments.js';
import { provisionDatabaseTool } from '../../machines/examples/provision-database.js';
import { conformanceFixtures } from '../../machines/conformance/index.js';
import { createMemoryVault } from '../../machines/index.js';
import type { Logger } from '../../server/engine/index.js';
import { countingRelease } from '../helpers/counting-release.js';
import { errorCatalogue } from '../../server/protocol/index.js';
import {
  answerValue,
  deepArrayText,
  hostileKey,
  INTERNAL_EVENT_KEYS,
  inputResponsesFor,
  metaShape,
  methodName,
  objectOf,
  PROTOTYPE_KEYS,
  prototypeFingerprint,
  wrongValue,
} from '../helpers/hostile-inputs.js';
import {
  applyFieldChange,
  applyHeaderChanges,
  fieldChange,
  headerChange,
  headersFor,
  isRecord,
  message,
  meta,
  PATHS,
  type HeaderChange,
} from '../helpers/hostile-messages.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

/**
 * Whatever arrives on the wire (spec: the client is untrusted) gets a well-formed JSON-RPC error
 * with its documented HTTP status, or a valid result: never a 5xx, a hang, a non-JSON body, an
 * unhandled rejection, a polluted prototype, or a machine moved by an answer it did not ask for.
 */

const REQUEST_TIMEOUT_MS = 10_000;
const CATALOGUE = new Map(errorCatalogue.map((entry) => [entry.code, entry.httpStatus]));
/** Statuses a code may travel with besides the catalogue's own (docs/errors.md). */
const ALSO_ALLOWED: Record<number, number[]> = { [-32602]: [400], [-32600]: [403, 401, 405, 413] };

interface Sent {
  body: string;
  headers: OutgoingHttpHeaders;
}

interface Received {
  status: number;
  contentType: string;
  text: string;
}

function send(url: string, sent: Sent): Promise<Received> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: sent.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(sent.body);
  });
}

const isRequestId = (v: unknown) => typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v));

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** The final JSON-RPC message of a response: the JSON body, or the last event of an SSE stream. */
function finalMessage(received: Received): any {
  if (received.contentType.startsWith('text/event-stream')) {
    const events = received.text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)));
    expect(events.length, received.text).to.be.above(0);
    return events[events.length - 1];
  }
  expect(received.contentType, received.text).to.match(/^application\/json/);
  return JSON.parse(received.text);
}

/** Checks one exchange against the wire contract; returns the final message (if any). */
function expectWellFormed(sent: Sent, received: Received): any {
  const context = `${received.status} ${received.text.slice(0, 300)}\nfor ${sent.body.slice(0, 300)}\nheaders ${JSON.stringify(sent.headers).slice(0, 300)}`;
  expect(received.status, context).to.be.below(500);
  const parsed = tryParse(sent.body);
  const request = parsed.ok ? parsed.value : undefined;
  if (received.status === 202) {
    expect(received.text, context).to.equal('');
    expect(isRecord(request) && !('id' in request), context).to.equal(true);
    return undefined;
  }
  expect([200, 400, 403, 404], context).to.include(received.status);
  const message = finalMessage(received);
  expect(message.jsonrpc, context).to.equal('2.0');
  const hasId = received.status !== 403 && isRecord(request) && isRequestId(request.id);
  if (hasId) expect(message.id, context).to.deep.equal((request as any).id);
  else expect(message, context).not.to.have.property('id');
  if ('error' in message) {
    expect(message, context).not.to.have.property('result');
    const { code, message: text } = message.error;
    expect(Number.isInteger(code), context).to.equal(true);
    expect(CATALOGUE.has(code), context).to.equal(true);
    expect(text, context).to.be.a('string');
    expect([CATALOGUE.get(code), ...(ALSO_ALLOWED[code] ?? [])], context).to.include(received.status);
    // No client input may reach -32603: the catalogue reserves it for bugs on the server side.
    expect(code, context).not.to.equal(-32603);
  } else {
    expect(received.status, context).to.equal(200);
    expect(message.result, context).to.satisfy(isRecord);
    expect(['complete', 'input_required'], context).to.include(message.result.resultType);
    if (message.result.resultType === 'input_required') {
      expect(message.result.inputRequests, context).to.satisfy(isRecord);
      expect(message.result.requestState, context).to.be.a('string');
    }
  }
  return message;
}

describe('the wire under random and hostile messages (property)', function () {
  this.timeout(120_000);

  let server: RunningServer;
  const failures: unknown[] = [];
  const logged: Array<{ event: string; fields?: Record<string, unknown> }> = [];
  const onRejection = (reason: unknown) => failures.push(reason);
  const onException = (error: unknown) => failures.push(error);
  let fingerprint = '';
  let templates: Array<Record<string, unknown>> = [];
  /** Real input_required states, with the call that continues each. */
  let pending: Array<{ method: string; params: Record<string, unknown>; state: string; asked: string[] }> = [];

  const { tool: counted, counter } = countingRelease();
  const recordingLogger: Logger = {
    info() {},
    warn() {},
    error(event, fields) {
      logged.push({ event, ...(fields ? { fields } : {}) });
    },
  };

  async function exchange(body: Record<string, unknown> | string, changes: HeaderChange[] = []) {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    const parsed = tryParse(text);
    const sent = { body: text, headers: applyHeaderChanges(headersFor(parsed.ok ? parsed.value : undefined), changes) };
    return { sent, message: expectWellFormed(sent, await send(server.url, sent)) };
  }

  before(async () => {
    process.on('unhandledRejection', onRejection);
    process.on('uncaughtException', onException);
    fingerprint = prototypeFingerprint();
    const fixtures = conformanceFixtures();
    const vault = createMemoryVault();
    server = await startTestServer({
      logger: recordingLogger,
      tools: [
        counted,
        provisionDatabaseTool,
        createConnectPaymentsTool({ vault, pageUrl: (id) => `http://127.0.0.1/vault/${id}` }),
        ...fixtures.tools,
      ],
      prompts: fixtures.prompts,
      resources: fixtures.resources,
    });
    const calls: Array<[string, Record<string, unknown>]> = [
      ...server.baton.registry
        .list()
        .map((tool) => ['tools/call', { name: tool.name, arguments: tool.exampleArguments ?? {} }] as [string, any]),
      ...fixtures.prompts.map((p) => ['prompts/get', { name: p.name, arguments: {} }] as [string, any]),
      ...fixtures.resources
        .filter((r) => 'uri' in r)
        .map((r) => ['resources/read', { uri: (r as { uri: string }).uri }] as [string, any]),
    ];
    templates = [
      ...calls.map(([method, params]) => message(method, params)),
      message('resources/read', { uri: 'test://template/42/data' }),
      message('tools/list', {}),
      message('server/discover', {}),
      message('prompts/list', {}),
      message('resources/list', {}),
      message('resources/templates/list', {}),
      message('completion/complete', { ref: { type: 'ref/prompt', name: 'x' }, argument: { name: 'a', value: '' } }),
    ];
    pending = [];
    for (const [method, params] of calls) {
      const { message: answer } = await exchange(message(method, params));
      if (answer?.result?.resultType === 'input_required') {
        const asked = Object.keys(answer.result.inputRequests);
        pending.push({ method, params, state: answer.result.requestState, asked });
      }
    }
    expect(pending.map((p) => p.params.name ?? p.params.uri)).to.include('release');
    counter.deployments = 0;
  });

  after(async () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
    await server?.close();
  });

  it('answers arbitrary JSON bodies and raw strings with well-formed errors', async () => {
    const body = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null'),
      fc.string({ maxLength: 200 }),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.constantFrom('', ' ', '{', '[]', '[{}]', 'null', '{"jsonrpc":"2.0"}', '\uFEFF{}', deepArrayText(200_000)),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.array(headerChange, { maxLength: 2 }), async (text, changes) => {
        await exchange(text, changes);
      }),
      { numRuns: 600 },
    );
  });

  it('answers near-valid requests with wrong types in every field with the documented error', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...templates),
        fc.array(fieldChange, { minLength: 1, maxLength: 3 }),
        fc.array(headerChange, { maxLength: 2 }),
        async (template, changes, headerChanges) => {
          const mutated = structuredClone(template);
          for (const change of changes) applyFieldChange(mutated, change);
          await exchange(mutated, headerChanges);
        },
      ),
      { numRuns: 1200 },
    );
  });

  it('answers random methods (xstate.*, prototype names, removed methods) and _meta shapes', async () => {
    await fc.assert(
      fc.asyncProperty(
        methodName,
        fc.option(metaShape, { freq: 2 }),
        fc.constantFrom(...templates),
        fc.array(headerChange, { maxLength: 1 }),
        async (method, metaValue, template, headerChanges) => {
          const mutated = structuredClone(template);
          mutated.method = method;
          if (metaValue !== null) applyFieldChange(mutated, { path: ['params', '_meta'], value: metaValue });
          await exchange(mutated, headerChanges);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('answers values nested up to 100k deep in any field without overflowing into a 5xx', async () => {
    const PLACEHOLDER = '__deep_value__';
    const deepText = fc
      .tuple(fc.integer({ min: 10, max: 100_000 }), fc.constantFrom('[', '{"a":'))
      .map(
        ([depth, open]) => open.repeat(depth) + (open === '[' ? ']' : '0}').repeat(depth).slice(open === '[' ? 0 : 1),
      );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...templates),
        fc.constantFrom(...PATHS.filter((path) => path[0] !== '__proto__')),
        deepText,
        async (template, path, text) => {
          const mutated = structuredClone(template);
          applyFieldChange(mutated, { path, value: PLACEHOLDER });
          await exchange(JSON.stringify(mutated).replace(`"${PLACEHOLDER}"`, text));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('answers resources/read and completion for random URIs, template-shaped or not', async () => {
    const segment = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.stringMatching(/^[0-9a-z%]{0,12}$/),
      fc.constantFrom('%', '%Z', '%E0%A4%A', '%00', '..', '%2F', '{id}', '42'),
    );
    const uri = fc.oneof(
      segment.map((id) => `test://template/${id}/data`),
      segment.map((s) => `test://${s}`),
      fc.webUrl(),
      fc.string({ maxLength: 40 }),
    );
    await fc.assert(
      fc.asyncProperty(uri, fc.boolean(), segment, async (target, read, value) => {
        const request = read
          ? message('resources/read', { uri: target })
          : message('completion/complete', {
              ref: { type: 'ref/resource', uri: target },
              argument: { name: 'id', value },
              context: { arguments: { id: value } },
            });
        await exchange(request);
      }),
      { numRuns: 400 },
    );
  });

  it('answers random inputResponses and requestStates on real flows, and never deploys', async () => {
    const state = (real: string) =>
      fc.oneof(
        { weight: 6, arbitrary: fc.constant(real) },
        { weight: 1, arbitrary: fc.nat().map((i) => real.slice(0, i % real.length)) },
        {
          weight: 1,
          arbitrary: fc.nat().map((i) => real.slice(0, i % real.length) + 'A' + real.slice((i % real.length) + 1)),
        },
        { weight: 1, arbitrary: wrongValue },
      );
    const round = fc
      .constantFrom(...pending)
      .chain((p) => fc.tuple(fc.constant(p), state(p.state), inputResponsesFor(p.asked), metaShape, fc.boolean()));
    await fc.assert(
      fc.asyncProperty(round, async ([p, requestState, inputResponses, metaValue, hostileMeta]) => {
        const retry = message(p.method, { ...p.params, requestState, inputResponses });
        if (hostileMeta) applyFieldChange(retry, { path: ['params', '_meta'], value: metaValue });
        const { message: answer } = await exchange(retry);
        // Round one of release asks for a window; nothing sent to it may reach the deployment.
        expect(answer?.result?.structuredContent?.released).not.to.equal(true);
      }),
      { numRuns: 1200 },
    );
    expect(counter.deployments).to.equal(0);
  });

  it('never moves a flow on internal event names or unasked answers, at either question of release', async () => {
    const args = { service: 'billing', version: '2.4.0' };
    const call = (round: Record<string, unknown>) =>
      message('tools/call', { name: 'release', arguments: args, ...round });
    const unasked = (asked: string) =>
      fc
        .array(
          fc.tuple(fc.oneof(fc.constantFrom(...INTERNAL_EVENT_KEYS, ...PROTOTYPE_KEYS), hostileKey), answerValue),
          { minLength: 1, maxLength: 6 },
        )
        .map((entries) => objectOf(entries.filter(([key]) => key !== asked)));
    const attempt = fc
      .boolean()
      .chain((atConfirm) => fc.tuple(fc.constant(atConfirm), unasked(atConfirm ? 'confirm' : 'window')));
    await fc.assert(
      fc.asyncProperty(attempt, async ([atConfirm, responses]) => {
        const first = (await exchange(call({}))).message.result;
        let state = first.requestState as string;
        if (atConfirm) {
          const second = await exchange(
            call({ requestState: state, inputResponses: { window: { action: 'accept', content: { window: 'now' } } } }),
          );
          state = second.message.result.requestState;
        }
        const before = counter.deployments;
        const { message: answer } = await exchange(call({ requestState: state, inputResponses: responses }));
        expect(answer.result?.resultType, JSON.stringify({ responses, answer })).to.equal('input_required');
        expect(Object.keys(answer.result.inputRequests)).to.deep.equal([atConfirm ? 'confirm' : 'window']);
        expect(counter.deployments).to.equal(before);
      }),
      { numRuns: 150 },
    );
  });

  it('left no unhandled rejection, uncaught exception, Koa error or polluted prototype behind', () => {
    expect(failures.map(String)).to.deep.equal([]);
    expect(prototypeFingerprint()).to.equal(fingerprint);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(logged.filter((entry) => entry.event === 'http_error')).to.deep.equal([]);
  });

  // Found by this suite: the method table was a plain object, so these found Object's members.
  it('answers methods named after Object.prototype members with -32601 and HTTP 404', async () => {
    for (const method of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      const body = JSON.stringify(message(method, {}));
      const received = await send(server.url, { body, headers: headersFor(JSON.parse(body)) });
      expect(received.status, `${method}: ${received.text}`).to.equal(404);
      expect(JSON.parse(received.text).error.code).to.equal(-32601);
    }
  });

  // Found by this suite: digesting 5000-deep arguments overflowed the stack (-32603). The JSON
  // shape limit now refuses them before anything walks them: HTTP 400, -32600.
  it('answers deeply nested arguments with -32600 (HTTP 400), never -32603', async () => {
    const deep = deepArrayText(5000);
    const calls = [
      { method: 'prompts/get', name: 'test_simple_prompt', args: `{"x":${deep}}` },
      {
        method: 'tools/call',
        name: 'json_schema_2020_12_tool',
        args: `{"contactMethod":"email","email":"a@b.c","address":{"deep":${deep}}}`,
      },
    ];
    for (const call of calls) {
      const body = `{"jsonrpc":"2.0","id":1,"method":"${call.method}","params":{"name":"${call.name}","arguments":${call.args},"_meta":${JSON.stringify(meta())}}}`;
      const received = await send(server.url, { body, headers: headersFor(JSON.parse(body)) });
      expect(received.status, `${call.method}: ${received.text}`).to.equal(400);
      expect(JSON.parse(received.text).error?.code, `${call.method}: ${received.text}`).to.equal(-32600);
    }
  });

  // Found by this suite: decodeURIComponent threw URIError on a template match (-32603).
  it('answers a template URI with a malformed percent-escape with -32602', async () => {
    for (const uri of ['test://template/%ZZ/data', 'test://template/%E0%A4%A/data', 'test://template/%/data']) {
      const body = JSON.stringify(message('resources/read', { uri }));
      const received = await send(server.url, { body, headers: headersFor(JSON.parse(body)) });
      expect(JSON.parse(received.text).error?.code, `${uri}: ${received.text}`).to.equal(-32602);
    }
  });
});
