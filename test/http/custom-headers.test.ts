/**
 * Mcp-Param-* headers (spec, streamable-http "Custom Headers from Tool Parameters"): a parameter
 * marked `x-mcp-header` must come as a header equal to the body's value; every failure is -32020
 * with HTTP 400, and nothing runs.
 */
import { expect } from 'chai';
import { defineTool, respondWith } from '../../server/engine/index.js';
import { callTool } from '../helpers/mcp-http.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

let runs = 0;
const routed = defineTool({
  name: 'routed',
  description: 'Runs where the headers say; counts its runs.',
  inputSchema: {
    type: 'object',
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      shard: { type: 'integer', 'x-mcp-header': 'Shard' },
      dryRun: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
      target: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
      note: { type: 'string' },
    },
    required: ['region'],
  },
  machine: respondWith('routed', () => {
    runs += 1;
    return 'ran';
  }),
});

const b64 = (value: string) => `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;

describe('Mcp-Param-* headers of x-mcp-header parameters', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({ tools: [routed] });
  });
  after(() => server.close());

  async function call(args: Record<string, unknown>, headers: Record<string, string>) {
    const before = runs;
    const response = await callTool(server.url, 'routed', args, {}, { headers });
    return { ...response, ran: runs > before };
  }

  async function expectAccepted(args: Record<string, unknown>, headers: Record<string, string>) {
    const response = await call(args, headers);
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(response.body.result?.content?.[0]?.text, JSON.stringify(response.body)).to.equal('ran');
    expect(response.ran).to.equal(true);
  }

  async function expectMismatch(args: Record<string, unknown>, headers: Record<string, string>, names: RegExp) {
    const response = await call(args, headers);
    expect(response.status, JSON.stringify(response.body)).to.equal(400);
    expect(response.body.error.code).to.equal(-32020);
    expect(response.body.error.message).to.match(names);
    expect(response.ran, 'the tool must not run').to.equal(false);
  }

  it('accepts headers equal to the body, plain or base64, header names in any case', async () => {
    await expectAccepted({ region: 'us-west1' }, { 'Mcp-Param-Region': 'us-west1' });
    await expectAccepted({ region: 'us-west1' }, { 'MCP-PARAM-REGION': 'us-west1' });
    await expectAccepted({ region: 'Hello, 世界' }, { 'Mcp-Param-Region': b64('Hello, 世界') });
    await expectAccepted({ region: ' padded ' }, { 'Mcp-Param-Region': b64(' padded ') });
    await expectAccepted({ region: '=?base64?literal?=' }, { 'Mcp-Param-Region': b64('=?base64?literal?=') });
  });

  it('takes a value with only one of the base64 markers as a literal', async () => {
    await expectAccepted({ region: '=?base64?SGVsbG8=' }, { 'Mcp-Param-Region': '=?base64?SGVsbG8=' });
    await expectAccepted({ region: 'SGVsbG8=?=' }, { 'Mcp-Param-Region': 'SGVsbG8=?=' });
  });

  it('refuses a missing header when the body has the value', async () => {
    await expectMismatch({ region: 'us-west1' }, {}, /Mcp-Param-Region header is required/);
    await expectMismatch(
      { region: 'eu', shard: 3 },
      { 'Mcp-Param-Region': 'eu' },
      /Mcp-Param-Shard header is required/,
    );
  });

  it('refuses a header that differs from the body, in value or in case', async () => {
    await expectMismatch({ region: 'us-west1' }, { 'Mcp-Param-Region': 'us-east1' }, /Mcp-Param-Region does not match/);
    await expectMismatch({ region: 'us-west1' }, { 'Mcp-Param-Region': 'US-WEST1' }, /does not match/);
    await expectMismatch({ region: 'Hello' }, { 'Mcp-Param-Region': b64('Hello ') }, /does not match/);
  });

  it('refuses malformed base64: bad padding, characters outside the alphabet, invalid UTF-8', async () => {
    for (const header of ['=?base64?SGVsbG8?=', '=?base64?SGVs!!!bG8=?=', '=?base64?/w==?=']) {
      await expectMismatch({ region: 'Hello' }, { 'Mcp-Param-Region': header }, /invalid base64/);
    }
  });

  it('refuses raw bytes outside visible ASCII, even when they would read as the body value', async () => {
    // Node reads header bytes as Latin-1: 0xE9 would arrive as "é" and equal the body's "café".
    await expectMismatch({ region: 'café' }, { 'Mcp-Param-Region': 'caf\xe9' }, /outside visible ASCII/);
    await expectAccepted({ region: 'café' }, { 'Mcp-Param-Region': b64('café') });
    const named = await callTool(
      server.url,
      'routed',
      { region: 'eu' },
      {},
      {
        headers: { 'Mcp-Param-Region': 'eu', 'mcp-name': 'rout\xe9d' },
      },
    );
    expect(named.status).to.equal(400);
    expect(named.body.error.code).to.equal(-32020);
    expect(named.body.error.message).to.match(/mcp-name holds characters outside visible ASCII/);
  });

  it('compares integers numerically and booleans as true / false', async () => {
    const region = { 'Mcp-Param-Region': 'eu' };
    await expectAccepted({ region: 'eu', shard: 42 }, { ...region, 'Mcp-Param-Shard': '42' });
    await expectAccepted({ region: 'eu', shard: 42 }, { ...region, 'Mcp-Param-Shard': '42.0' });
    await expectAccepted({ region: 'eu', shard: -7 }, { ...region, 'Mcp-Param-Shard': '-7' });
    await expectMismatch({ region: 'eu', shard: 42 }, { ...region, 'Mcp-Param-Shard': '43' }, /Shard/);
    await expectMismatch({ region: 'eu', shard: 42 }, { ...region, 'Mcp-Param-Shard': 'forty-two' }, /Shard/);
    await expectMismatch({ region: 'eu', shard: 0 }, { ...region, 'Mcp-Param-Shard': '' }, /Shard/);
    await expectAccepted({ region: 'eu', dryRun: true }, { ...region, 'Mcp-Param-Dry-Run': 'true' });
    await expectAccepted({ region: 'eu', dryRun: false }, { ...region, 'Mcp-Param-Dry-Run': 'false' });
    await expectMismatch({ region: 'eu', dryRun: true }, { ...region, 'Mcp-Param-Dry-Run': 'True' }, /Dry-Run/);
    await expectMismatch({ region: 'eu', dryRun: false }, { ...region, 'Mcp-Param-Dry-Run': '0' }, /Dry-Run/);
  });

  it('reads nested parameters by their properties path, and expects nothing for null or absent values', async () => {
    const region = { 'Mcp-Param-Region': 'eu' };
    await expectAccepted({ region: 'eu', target: { zone: 'b' } }, { ...region, 'Mcp-Param-Zone': 'b' });
    await expectMismatch({ region: 'eu', target: { zone: 'b' } }, region, /Mcp-Param-Zone .*arguments\.target\.zone/);
    // null is "no value" for the headers; the schema then refuses it as a tool error, not -32020.
    const nullZone = await call({ region: 'eu', target: { zone: null } }, region);
    expect(nullZone.status).to.equal(200);
    expect(nullZone.body.result.isError).to.equal(true);
    await expectAccepted({ region: 'eu', target: {} }, region);
    // A header for a value the body does not have is not compared (the client should not send it).
    await expectAccepted({ region: 'eu' }, { ...region, 'Mcp-Param-Shard': '9' });
  });
});
