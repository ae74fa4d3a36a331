/**
 * Replaying a paused flow from its requestState (FlowReplay, issue 42 item 2): `provision-database`
 * paused at its confirmation is continued twice with different answers, on the tool's stand-ins,
 * and the client's original state still completes once, running the real effect once. A fork never
 * opens on the engine that serves clients, and nothing is replayed that does not open with the keys.
 */
import { expect } from 'chai';
import { fromPromise } from 'xstate';
import {
  defineTool,
  FlowEngine,
  FlowReplay,
  type FlowOutcome,
  type ToolDefinition,
} from '../../../server/engine/index.js';
import { provisionDatabaseTool, provisionMachine } from '../../../machines/examples/provision-database.js';
import { testKeyRing } from '../fixtures/keys.js';

const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });
const CAPABILITIES = { elicitation: { form: {} } };
const ARGS = { project: 'atlas' };

describe('replaying a paused flow (FlowReplay)', () => {
  const effects = { real: 0, standIn: 0 };
  const tool: ToolDefinition = {
    ...provisionDatabaseTool,
    machine: provisionMachine.provide({
      actors: {
        provision: fromPromise(async () => {
          effects.real += 1;
          return { databaseUrl: 'postgres://real' };
        }),
      },
    }),
    exampleActors: {
      provision: fromPromise(async () => {
        effects.standIn += 1;
        return { databaseUrl: 'postgres://stand-in' };
      }),
    },
  };
  const keyRing = testKeyRing();
  const engine = new FlowEngine({ keyRing });
  const replay = new FlowReplay({ keyRing });
  const call = (extra: { requestState?: string; inputResponses?: Record<string, unknown> } = {}) =>
    engine.run({ flow: tool, arguments: ARGS, principal: 'alice', clientCapabilities: CAPABILITIES, ...extra });
  const asking = (outcome: FlowOutcome) => {
    expect(outcome.kind, JSON.stringify(outcome)).to.equal('input_required');
    return outcome as Extract<FlowOutcome, { kind: 'input_required' }>;
  };
  let paused: string;

  before(async () => {
    const first = asking(await call());
    const confirm = asking(
      await call({
        requestState: first.requestState,
        inputResponses: { size: accept({ size: 'small' }), region: accept({ region: 'eu-west' }) },
      }),
    );
    expect(Object.keys(confirm.inputRequests)).to.deep.equal(['confirm']);
    paused = confirm.requestState;
  });

  it('opens the state: its tool, where it waits and its context', () => {
    const opened = replay.open(paused)!;
    expect(opened).to.include({ tool: 'provision-database', fork: false });
    expect(opened.states).to.deep.equal(['confirm']);
    expect(opened.context).to.include({ project: 'atlas', size: 'small', region: 'eu-west' });
  });

  it('continues it twice with different answers, on the stand-ins, leaving the original untouched', async () => {
    const yes = await replay.step({
      tool,
      token: paused,
      operator: 'ops',
      inputResponses: { confirm: accept({ confirm: true }) },
    });
    expect(yes.kind).to.equal('stepped');
    const done = (yes as Extract<typeof yes, { kind: 'stepped' }>).outcome;
    expect(done).to.deep.include({ kind: 'complete' });
    expect((done as { output: any }).output).to.include({ databaseUrl: 'postgres://stand-in' });
    const no = await replay.step({
      tool,
      token: paused,
      operator: 'ops',
      inputResponses: { confirm: accept({ confirm: false }) },
    });
    expect((no as any).outcome.output).to.match(/cancelled: nothing was created/);
    expect(effects).to.deep.equal({ real: 0, standIn: 1 });
  });

  it('asks again without answers, with a fork the serving engine refuses and the replay continues', async () => {
    const again = await replay.step({ tool, token: paused, operator: 'ops' });
    const fork = asking((again as any).outcome);
    expect(Object.keys(fork.inputRequests)).to.deep.equal(['confirm']);
    expect(fork.requestState).to.not.equal(paused);
    expect(replay.open(fork.requestState)).to.include({ fork: true, tool: 'provision-database' });
    // A client presenting a fork to the MCP endpoint gets the opaque invalid-state error.
    expect(() =>
      call({ requestState: fork.requestState, inputResponses: { confirm: accept({ confirm: true }) } }),
    ).to.throw('invalid or expired requestState');
    const done = await replay.step({
      tool,
      token: fork.requestState,
      operator: 'ops',
      inputResponses: { confirm: accept({ confirm: true }) },
    });
    expect((done as any).outcome.kind).to.equal('complete');
  });

  it("still completes the client's original once, running the real effect once", async () => {
    const before = effects.real;
    const first = await call({ requestState: paused, inputResponses: { confirm: accept({ confirm: true }) } });
    expect(first.kind).to.equal('complete');
    expect((first as any).output).to.include({ databaseUrl: 'postgres://real' });
    // The confirmation is single use: presented again it answers the first run's result, running nothing.
    const again = await call({ requestState: paused, inputResponses: { confirm: accept({ confirm: true }) } });
    expect((again as any).output).to.deep.equal((first as any).output);
    expect(effects.real - before).to.equal(1);
  });

  it('refuses what does not open, another tool’s state, and a tool whose effect has no stand-in', async () => {
    const tampered = `${paused.slice(0, -4)}AAAA`;
    expect(replay.open(tampered)).to.equal(undefined);
    expect(await replay.step({ tool, token: tampered, operator: 'ops' })).to.deep.include({ kind: 'refused' });
    const other = defineTool({ ...tool, name: 'other' });
    const foreign = await replay.step({ tool: other, token: paused, operator: 'ops' });
    expect(foreign).to.deep.equal({
      kind: 'refused',
      message: 'That requestState belongs to provision-database, not other.',
    });
    const unsafe = { ...tool, exampleActors: {} };
    const refused = await replay.step({ tool: unsafe, token: paused, operator: 'ops' });
    expect(refused.kind).to.equal('refused');
    expect((refused as { message: string }).message)
      .to.include('cannot be replayed safely')
      .and.include('provision');
    expect(effects.real).to.equal(1);
  });
});
