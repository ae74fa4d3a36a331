/**
 * The console costs a request that is not for it nothing (docs/console.md, "Cost"): an MCP
 * request is answered by the endpoint before any router, the console's included, is reached. A
 * router placed after the console's sees only what the console's router passed on, so it tells
 * whether a request went through it. The CPU this saves is measured by `bench:compare -- --console`
 * (docs/benchmarks.md, "The console").
 */
import Router from '@koa/router';
import { expect } from 'chai';
import { callTool, rpc } from '../helpers/mcp-http.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

describe('the console on a request not for it', () => {
  let server: RunningServer;
  const reached: string[] = [];

  before(async () => {
    // After the console's router: reached only by a request the console's router let through.
    const after = new Router();
    after.all('/{*any}', (ctx, next) => {
      reached.push(`${ctx.method} ${ctx.path}`);
      return next();
    });
    server = await startTestServer({ console: { loopback: true }, routers: [after] });
  });

  after(() => server.close());

  beforeEach(() => reached.splice(0));

  it('answers MCP requests without passing them through the console router', async () => {
    const listed = await rpc(server.url, 'tools/list');
    expect(listed.status).to.equal(200);
    const called = await callTool(server.url, 'release', { service: 'api', version: '1.0.0' });
    expect(called.status).to.equal(200);
    expect(reached).to.deep.equal([]);
  });

  it('passes what it does not serve on, so the probe above does see requests', async () => {
    const response = await fetch(`${server.origin}/no-such-page`);
    expect(response.status).to.equal(404);
    expect(reached).to.deep.equal(['GET /no-such-page']);
  });
});
