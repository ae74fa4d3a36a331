/**
 * A deploy of `release` version 2 (a changelog question for a breaking release) over builds that
 * served version 1, over HTTP: one key ring, two servers. A requestState version 1 sealed is
 * answered by the new build with version 1's next question, never its first again, and the flow
 * completes and deploys once; new calls run version 2.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { defineTool, FlowEngine, KeyRing } from '../../server/engine/index.js';
import { callTool } from '../helpers/mcp-http.js';
import { startTestServer, testKeyRing, type RunningServer } from '../helpers/test-server.js';
import { releaseTool } from '../../machines/examples/release.js';
import { releaseV1Tool } from '../../machines/examples/release.v1.js';

const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });
const ARGS = { service: 'billing', version: '3.0.0' };

async function round(server: RunningServer, args: Record<string, unknown>, previous?: any, inputResponses?: object) {
  const response = await callTool(
    server.url,
    'release',
    args,
    previous ? { requestState: previous.requestState, inputResponses } : {},
  );
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  expect(response.body.error, JSON.stringify(response.body.error)).to.equal(undefined);
  return JSON.parse(JSON.stringify(response.body.result));
}

const asked = (result: any) => Object.keys(result.inputRequests ?? {});

describe('release: a state version 1 sealed, answered by the build of version 2', () => {
  let keyRing: KeyRing;
  let v1: RunningServer;
  let v2: RunningServer;
  /** What the new build logged: how each presented state went on. */
  const events: string[] = [];
  const logger = { info: (event: string) => void events.push(event), warn() {}, error() {} };
  before(async () => {
    keyRing = testKeyRing();
    v1 = await startTestServer({ keyRing, tools: [releaseV1Tool] });
    // The examples as served (exampleTools): release version 2, version 1 kept beside it.
    v2 = await startTestServer({ keyRing, logger });
  });
  after(async () => {
    await v1.close();
    await v2.close();
  });

  it('the new build serves a structurally different release, and keeps version 1', () => {
    expect(releaseTool.versions?.map((version) => version.machine)).to.deep.equal([releaseV1Tool.machine]);
  });

  it("asks version 1's next question (confirm), not its first, and completes", async () => {
    const first = await round(v1, ARGS);
    expect(asked(first)).to.deep.equal(['window']);
    events.length = 0;
    const confirm = await round(v2, ARGS, first, { window: accept({ window: 'tonight' }) });
    expect(asked(confirm)).to.deep.equal(['confirm']);
    // On version 1's machine, and the state it seals is version 1's again (kept on the next round too).
    expect(events.filter((event) => event.startsWith('request_state_'))).to.deep.equal(['request_state_kept']);
    const done = await round(v2, ARGS, confirm, { confirm: accept({ confirm: true }) });
    expect(events.filter((event) => event.startsWith('request_state_'))).to.deep.equal([
      'request_state_kept',
      'request_state_kept',
    ]);
    expect(done.resultType).to.equal('complete');
    expect(done.structuredContent).to.deep.equal({
      released: true,
      service: 'billing',
      version: '3.0.0',
      window: 'tonight',
      deploymentId: 'billing@3.0.0#tonight',
    });
  });

  it('goes on at the confirmation a version 1 build asked', async () => {
    const first = await round(v1, ARGS);
    const confirm = await round(v1, ARGS, first, { window: accept({ window: 'now' }) });
    const done = await round(v2, ARGS, confirm, { confirm: accept({ confirm: true }) });
    expect(done.structuredContent).to.include({ released: true, window: 'now' });
  });

  it('restarts the flow on a build of version 2 that does not keep version 1 (the old behaviour)', async () => {
    const unkept = await startTestServer({ keyRing, tools: [defineTool({ ...releaseTool, versions: [] })] });
    try {
      const first = await round(v1, ARGS);
      const again = await round(unkept, ARGS, first, { window: accept({ window: 'now' }) });
      expect(asked(again)).to.deep.equal(['window']);
    } finally {
      await unkept.close();
    }
  });

  it('runs a new call on version 2: a breaking release is asked for its changelog', async () => {
    const args = { ...ARGS, breaking: true };
    const first = await round(v2, args);
    const changelog = await round(v2, args, first, { window: accept({ window: 'now' }) });
    expect(asked(changelog)).to.deep.equal(['changelog']);
    const confirm = await round(v2, args, changelog, { changelog: accept({ changelog: 'Drops the v1 API.' }) });
    expect(asked(confirm)).to.deep.equal(['confirm']);
    const done = await round(v2, args, confirm, { confirm: accept({ confirm: true }) });
    expect(done.structuredContent).to.include({ released: true, changelog: 'Drops the v1 API.' });
  });
});

/**
 * States sealed by the build of commit e622e01 itself (fixtures/e622e01-release-states.json, its
 * engine and its release), presented to this build's served release: version 1 is kept, so they go
 * on with version 1's next question and complete.
 */
describe('release: states sealed by the build of e622e01, answered by this build', () => {
  const recorded = JSON.parse(
    readFileSync(new URL('../engine/fixtures/e622e01-release-states.json', import.meta.url), 'utf8'),
  ) as {
    clockMs: number;
    key: { id: string; fill: number };
    principal: string;
    arguments: Record<string, unknown>;
    asksWindow: { requestState: string };
    asksConfirm: { requestState: string };
  };
  const engine = (tool = releaseTool) => {
    const flows = new FlowEngine({
      keyRing: new KeyRing([{ id: recorded.key.id, secret: new Uint8Array(32).fill(recorded.key.fill) }]),
      clock: () => recorded.clockMs,
    });
    return (requestState: string, inputResponses: object) =>
      flows.run({
        flow: tool,
        arguments: recorded.arguments,
        principal: recorded.principal,
        clientCapabilities: { elicitation: { form: {} } },
        requestState,
        inputResponses,
      });
  };

  it('answers the window with the confirmation (not the window again), then deploys', async () => {
    const run = engine();
    const confirm = await run(recorded.asksWindow.requestState, { window: accept({ window: 'tonight' }) });
    expect(confirm.kind === 'input_required' && Object.keys(confirm.inputRequests)).to.deep.equal(['confirm']);
    const done = await run((confirm as { requestState: string }).requestState, { confirm: accept({ confirm: true }) });
    expect(done).to.deep.include({ kind: 'complete' });
    expect((done as { output: unknown }).output).to.include({ released: true, deploymentId: 'billing@2.4.0#tonight' });
  });

  it('completes a confirmation e622e01 asked', async () => {
    const done = await engine()(recorded.asksConfirm.requestState, { confirm: accept({ confirm: true }) });
    expect((done as { output: unknown }).output).to.include({ released: true, window: 'tonight' });
  });

  it('would restart without version 1 kept', async () => {
    const restarted = await engine(defineTool({ ...releaseTool, versions: [] }))(recorded.asksWindow.requestState, {
      window: accept({ window: 'tonight' }),
    });
    expect(restarted.kind === 'input_required' && Object.keys(restarted.inputRequests)).to.deep.equal(['window']);
  });
});
