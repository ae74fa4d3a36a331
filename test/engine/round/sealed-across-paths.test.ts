/**
 * A sealed state is the same bytes whichever actor ran the round (engine/round/round-actor.ts), so
 * a fleet can mix builds and paths; and states sealed by the build before the lean path
 * (fixtures/base-build-states.json, sealed by commit 72fe1bc) still open on both paths.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import {
  FlowEngine,
  KeyRing,
  type FlowOutcome,
  type ToolDefinition,
  type XStatePath,
} from '../../../server/engine/index.js';
import { leanActorSupport } from '../../../server/engine/round/lean-path-check.js';
import { benchTools } from '../../../bench/tools/index.js';
import { richTool } from '../fixtures/rich-machine.js';
import { countingBytes, fixedKey } from '../fixtures/keys.js';
import { wire } from '../fixtures/flow.js';

interface Recorded {
  commit: string;
  clockMs: number;
  key: { id: string; fill: number };
  principal: string;
  flows: Array<{
    tool: string;
    arguments: Record<string, unknown>;
    rounds: Array<{ requestState: string; inputRequests: unknown; inputResponses: Record<string, unknown> }>;
    output: unknown;
  }>;
}

const recorded = JSON.parse(
  readFileSync(new URL('../fixtures/base-build-states.json', import.meta.url), 'utf8'),
) as Recorded;
const tools: ToolDefinition[] = [...benchTools, richTool];
const CAPS = { elicitation: { form: {} } };

function engineOn(path: XStatePath): FlowEngine {
  return new FlowEngine({
    keyRing: new KeyRing([fixedKey(recorded.key.id, recorded.key.fill)]),
    clock: () => recorded.clockMs,
    randomBytes: countingBytes(),
    xstatePath: path,
  });
}

function toolNamed(name: string): ToolDefinition {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

async function round(
  engine: FlowEngine,
  tool: ToolDefinition,
  args: Record<string, unknown>,
  requestState?: string,
  inputResponses?: Record<string, unknown>,
): Promise<FlowOutcome> {
  return wire(
    await engine.run({
      flow: tool,
      arguments: args,
      principal: recorded.principal,
      clientCapabilities: CAPS,
      ...(requestState === undefined ? {} : { requestState, inputResponses }),
    }),
  );
}

describe('sealed states across XState paths', () => {
  before(() => {
    // Otherwise the auto path would be the public one, and every comparison here vacuous.
    expect(leanActorSupport()).to.deep.equal({ ok: true });
  });

  for (const flow of recorded.flows) {
    it(`seals the same bytes on the lean and the public path, round by round (${flow.tool})`, async () => {
      const tool = toolNamed(flow.tool);
      const lean = engineOn('auto');
      const reference = engineOn('public');
      let leanOutcome = await round(lean, tool, flow.arguments);
      let publicOutcome = await round(reference, tool, flow.arguments);
      for (const recordedRound of flow.rounds) {
        expect(leanOutcome).to.deep.equal(publicOutcome);
        expect(leanOutcome.kind).to.equal('input_required');
        const state = (leanOutcome as { requestState: string }).requestState;
        leanOutcome = await round(lean, tool, flow.arguments, state, recordedRound.inputResponses);
        publicOutcome = await round(reference, tool, flow.arguments, state, recordedRound.inputResponses);
      }
      expect(leanOutcome).to.deep.equal(publicOutcome);
      expect(leanOutcome).to.deep.equal(flow.output);
    });

    for (const path of ['auto', 'public'] as const) {
      it(`opens every state ${flow.tool} sealed in the base build on the ${path} path, and goes on as it did`, async () => {
        const tool = toolNamed(flow.tool);
        for (const [index, sealed] of flow.rounds.entries()) {
          const next = await round(engineOn(path), tool, flow.arguments, sealed.requestState, sealed.inputResponses);
          const expected = flow.rounds[index + 1];
          if (expected) {
            expect(next.kind, JSON.stringify(next)).to.equal('input_required');
            expect((next as { inputRequests: unknown }).inputRequests).to.deep.equal(expected.inputRequests);
          } else {
            expect(next).to.deep.equal(flow.output);
          }
        }
      });
    }
  }

  for (const path of ['auto', 'public'] as const) {
    it(`seals, on the ${path} path, the very bytes the base build sealed, given the same nonces`, async () => {
      // One engine through every flow in the recorded order draws the nonces the base build drew.
      const engine = engineOn(path);
      for (const flow of recorded.flows) {
        const tool = toolNamed(flow.tool);
        let outcome = await round(engine, tool, flow.arguments);
        for (const sealed of flow.rounds) {
          expect((outcome as { requestState?: string }).requestState, flow.tool).to.equal(sealed.requestState);
          outcome = await round(engine, tool, flow.arguments, sealed.requestState, sealed.inputResponses);
        }
        expect(outcome).to.deep.equal(flow.output);
      }
    });
  }

  it('has states of the base build for every bench flow and the rich machine', () => {
    expect(recorded.commit).to.equal('72fe1bc');
    expect(recorded.flows.map((f) => f.tool)).to.deep.equal(tools.map((t) => t.name));
    expect(recorded.flows.map((f) => f.rounds.length)).to.deep.equal([1, 3, 2, 5]);
  });
});
