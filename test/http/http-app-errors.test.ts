import { expect } from 'chai';
import { createHttpApp } from '../../server/http/index.js';
import { createMcpService } from '../../server/create-mcp-service.js';
import { releaseTool } from '../../machines/examples/release.js';
import { testKeyRing } from '../helpers/test-server.js';

describe('the Koa app error log', () => {
  it("logs a client's mistake (4xx) as a warning, and only errors on our side as errors", () => {
    const lines: string[] = [];
    const logger = {
      info() {},
      debug() {},
      warn: (event: string) => lines.push(`warn ${event}`),
      error: (event: string) => lines.push(`error ${event}`),
    };
    const { dispatcher } = createMcpService({ tools: [releaseTool], keyRing: testKeyRing(), logger });
    const app = createHttpApp({ dispatcher, logger, instanceId: 'test' });
    app.emit('error', Object.assign(new Error('Bad Request'), { status: 400, expose: true }));
    app.emit('error', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    app.emit(
      'error',
      Object.assign(new Error('Parse Error: Invalid character in chunk size'), { code: 'HPE_INVALID_CHUNK_SIZE' }),
    );
    app.emit('error', new Error('a bug'));
    expect(lines).to.deep.equal(['warn http_client_error', 'warn http_client_error', 'error http_error']);
  });

  it("logs Node's request timeout (a client that stopped sending its request) as a warning", () => {
    const lines: string[] = [];
    const logger = {
      info() {},
      warn: (event: string) => lines.push(`warn ${event}`),
      error: (event: string) => lines.push(`error ${event}`),
    };
    const { dispatcher } = createMcpService({ tools: [releaseTool], keyRing: testKeyRing(), logger });
    const app = createHttpApp({ dispatcher, logger, instanceId: 'test' });
    app.emit('error', Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }));
    expect(lines).to.deep.equal(['warn http_client_error']);
  });
});
