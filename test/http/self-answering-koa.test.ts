import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa, { type Context } from 'koa';
import { releaseTool } from '../../machines/examples/release.js';
import { createMcpService } from '../../server/create-mcp-service.js';
import { createHttpApp } from '../../server/http/index.js';
import { ResponseChannel } from '../../server/http/response-channel.js';
import { SelfAnsweringKoa, UnansweredRequestError } from '../../server/http/self-answering-koa.js';
import { testKeyRing } from '../helpers/test-server.js';

/** on-finished keeps its listeners for a response on this property (on-finished/index.js). */
const hasFinishListener = (ctx: Context) =>
  (ctx.res as unknown as { __onFinished?: unknown }).__onFinished !== undefined;

describe('SelfAnsweringKoa', () => {
  let server: Server;
  let url: string;
  const errors: Error[] = [];
  const seen: Array<{ path: string; finishListener: boolean }> = [];

  before(async () => {
    const app = new SelfAnsweringKoa((ctx) => ctx.method === 'POST' && ctx.path.startsWith('/own/'));
    app.silent = true;
    app.on('error', (error: Error) => errors.push(error));
    app.use((ctx, next) => {
      seen.push({ path: ctx.path, finishListener: hasFinishListener(ctx) });
      return next();
    });
    app.use((ctx) => {
      switch (ctx.method === 'POST' ? ctx.path : 'not a POST') {
        case '/own/written':
          ctx.respond = false;
          ctx.res.writeHead(200, { 'Content-Type': 'text/plain' }).end('written');
          return;
        case '/own/abandoned':
          new ResponseChannel(ctx).abandon();
          return;
        case '/own/forgotten':
          ctx.status = 200;
          ctx.body = 'Koa would have sent this';
          return;
        case '/own/thrown':
          ctx.throw(418, 'a teapot');
          return;
        default:
          ctx.body = 'sent by Koa';
      }
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => new Promise((resolve) => server.close(resolve)));

  beforeEach(() => {
    errors.length = 0;
    seen.length = 0;
  });

  it('replaces the handleRequest of the Koa it was tested with (an upgrade that changes it fails here)', () => {
    expect(new SelfAnsweringKoa(() => true).selfAnswering).to.equal(true);
  });

  it('answers a self-answering request with what it wrote, without a finish listener', async () => {
    const response = await fetch(`${url}/own/written`, { method: 'POST' });
    expect(response.status).to.equal(200);
    expect(await response.text()).to.equal('written');
    expect(seen).to.deep.equal([{ path: '/own/written', finishListener: false }]);
    expect(errors).to.deep.equal([]);
  });

  it("leaves every other request to Koa's own handleRequest and its finish listener", async () => {
    const get = await fetch(`${url}/own/written`);
    expect(get.status).to.equal(200);
    expect(await get.text()).to.equal('sent by Koa');
    const other = await fetch(`${url}/elsewhere`, { method: 'POST' });
    expect(await other.text()).to.equal('sent by Koa');
    expect(seen.map((s) => s.finishListener)).to.deep.equal([true, true]);
  });

  it('sends an abandoned request its 204 itself', async () => {
    const response = await fetch(`${url}/own/abandoned`, { method: 'POST' });
    expect(response.status).to.equal(204);
    expect(await response.text()).to.equal('');
    expect(errors).to.deep.equal([]);
  });

  it('answers 500 and reports it when a self-answering request leaves its answer to Koa', async () => {
    const response = await fetch(`${url}/own/forgotten`, { method: 'POST' });
    expect(response.status).to.equal(500);
    expect(await response.text()).to.not.include('Koa would have sent this');
    expect(errors).to.have.length(1);
    expect(errors[0]).to.be.instanceOf(UnansweredRequestError);
    expect(errors[0]!.message).to.equal('POST /own/forgotten was meant to write its own answer and did not');
  });

  it("hands what a self-answering request throws to Koa's onerror, as Koa does", async () => {
    const response = await fetch(`${url}/own/thrown`, { method: 'POST' });
    expect(response.status).to.equal(418);
    expect(await response.text()).to.equal('a teapot');
    expect(errors.map((e) => e.message)).to.deep.equal(['a teapot']);
  });
});

describe('SelfAnsweringKoa on a Koa whose handleRequest it does not know', () => {
  const koa = Koa.prototype as unknown as { handleRequest: (ctx: Context, fn: unknown) => unknown };
  const original = koa.handleRequest;

  beforeEach(() => {
    // The same behaviour under another body, as a Koa release might write it.
    koa.handleRequest = function (this: Koa, ctx: Context, fn: unknown) {
      return original.call(this, ctx, fn);
    };
  });

  afterEach(() => {
    koa.handleRequest = original;
  });

  it("takes Koa's own path for every request, and the HTTP app warns at start-up", async () => {
    const app = new SelfAnsweringKoa(() => true);
    expect(app.selfAnswering).to.equal(false);
    const seen: boolean[] = [];
    app.use((ctx) => {
      seen.push(hasFinishListener(ctx));
      ctx.body = 'sent by Koa';
    });
    const server = app.listen(0, '127.0.0.1');
    try {
      await new Promise((resolve) => server.once('listening', resolve));
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { method: 'POST' });
      expect(await response.text()).to.equal('sent by Koa');
      expect(seen).to.deep.equal([true]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }

    const warnings: string[] = [];
    const logger = { info() {}, debug() {}, error() {}, warn: (event: string) => warnings.push(event) };
    const { dispatcher } = createMcpService({ tools: [releaseTool], keyRing: testKeyRing(), logger });
    createHttpApp({ dispatcher, logger, instanceId: 'test' });
    expect(warnings).to.deep.equal(['koa_handle_request_unrecognised']);
  });
});
