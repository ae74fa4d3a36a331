/**
 * New calls started on a kept version (BATON_START_ON, docs/deploy.md "Rolling deploys"): the tool
 * is served with its kept machine starting and its current machine kept, so a flow the new build
 * starts is one the old build can continue, and states the current machine sealed still go on.
 */
import { expect } from 'chai';
import { applyStartOn, FlowEngine, startingOn, structuralVersion } from '../../../server/engine/index.js';
import { createMcpService } from '../../../server/create-mcp-service.js';
import { releaseTool } from '../../../machines/examples/release.js';
import { releaseV1Tool } from '../../../machines/examples/release.v1.js';
import { testKeyRing } from '../fixtures/keys.js';

const ARGS = { service: 'billing', version: '3.0.0', breaking: true };
const CAPABILITIES = { elicitation: { form: {} } };
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

describe('starting new calls on a kept version', () => {
  it('swaps the kept machine in, and keeps the current one', () => {
    const pinned = startingOn(releaseTool, 'v1', structuralVersion);
    expect(pinned.machine).to.equal(releaseV1Tool.machine);
    expect(pinned.versions?.map((version) => version.machine)).to.deep.equal([releaseTool.machine]);
    expect(startingOn(releaseTool, structuralVersion(releaseV1Tool.machine), structuralVersion).machine).to.equal(
      releaseV1Tool.machine,
    );
  });

  it('seals what an old build opens, and still continues what the current machine sealed', async () => {
    const engine = new FlowEngine({ keyRing: testKeyRing() });
    const pinned = startingOn(releaseTool, 'v1', structuralVersion);
    const call = (tool: typeof releaseTool, extra: object = {}) =>
      engine.run({
        flow: tool,
        arguments: ARGS,
        principal: 'alice',
        clientCapabilities: CAPABILITIES,
        ...extra,
      }) as any;
    // A flow the pinned build starts: version 1's first question, continued by a version-1-only build.
    const started = await call(pinned);
    const onOld = await call(releaseV1Tool, {
      requestState: started.requestState,
      inputResponses: { window: accept({ window: 'now' }) },
    });
    expect(Object.keys(onOld.inputRequests)).to.deep.equal(['confirm']); // version 1 asks no changelog
    // A flow version 2 started before the setting: the pinned build continues it on version 2.
    const v2 = await call(releaseTool);
    const next = await call(pinned, {
      requestState: v2.requestState,
      inputResponses: { window: accept({ window: 'now' }) },
    });
    expect(Object.keys(next.inputRequests)).to.deep.equal(['changelog']);
  });

  it('refuses a version the tool does not keep, and a tool the server does not serve, saying which', () => {
    expect(() => startingOn(releaseTool, 'v0', structuralVersion)).to.throw(
      'Tool "release" cannot start new calls on "v0": the versions it keeps are "v1".',
    );
    expect(() => startingOn(releaseV1Tool, 'v0', structuralVersion)).to.throw('it keeps no earlier version');
    expect(() => applyStartOn([releaseTool], { relase: 'v1' }, structuralVersion)).to.throw(
      'BATON_START_ON names "relase", which this server does not serve.',
    );
    expect(() =>
      createMcpService({ tools: [releaseTool], keyRing: testKeyRing(), startOn: { release: 'v9' } }),
    ).to.throw('cannot start new calls on "v9"');
  });
});
