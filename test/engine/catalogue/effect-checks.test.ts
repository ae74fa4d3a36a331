import { expect } from 'chai';
import { fromPromise, setup } from 'xstate';
import { createMemoryVault, exampleTools } from '../../../machines/index.js';
import { provisionDatabaseTool, provisionMachine } from '../../../machines/examples/provision-database.js';
import { releaseTool } from '../../../machines/examples/release.js';
import { createServer } from '../../../server/create-server.js';
import {
  askForm,
  ConfigurationError,
  defineTool,
  docsEffectProblems,
  FlowEngine,
  reusableEffectWarnings,
  silentLogger,
  type ToolDefinition,
} from '../../../server/engine/index.js';
import { testKeyRing } from '../../helpers/test-server.js';

const examples = exampleTools({ publicUrl: 'http://127.0.0.1:3000', vault: createMemoryVault() });

/** Confirm, then an effect: the shape of provision-database before its confirmation was single use. */
function confirmThenEffect(singleUse: boolean): ToolDefinition {
  const machine = setup({
    actors: { effect: fromPromise(async () => 'done'), check: fromPromise(async () => true) },
  }).createMachine({
    id: 'effectful',
    initial: 'checking',
    states: {
      checking: { invoke: { src: 'check', onDone: 'confirm' } },
      confirm: askForm({
        key: 'confirm',
        message: 'Go?',
        schema: { type: 'object', properties: { go: { type: 'boolean' } } },
        onAccept: 'working',
        onDecline: 'done',
        singleUse,
      }),
      working: { invoke: { src: 'effect', onDone: 'done' } },
      done: { type: 'final' },
    },
  });
  return defineTool({
    name: 'effectful',
    description: 'Confirms, then acts.',
    inputSchema: { type: 'object' },
    annotations: { idempotentHint: false },
    machine,
    safeActors: ['check'],
  });
}

describe('effect checks', () => {
  describe('docsEffectProblems', () => {
    it('names each invoked actor with neither a stand-in nor a safe mark', () => {
      const { exampleActors: _stand, ...bare } = releaseTool;
      const problems = docsEffectProblems(defineTool(bare));
      expect(problems).to.have.length(1);
      expect(problems[0]).to.include('"deploy"').and.include('release.deploying');
    });

    it('accepts stand-ins and actors marked safe; every example tool is covered', () => {
      for (const tool of examples) expect(docsEffectProblems(tool), tool.name).to.deep.equal([]);
      const { safeActors: _safe, ...unmarked } = provisionDatabaseTool;
      expect(docsEffectProblems(defineTool(unmarked)).join()).to.include('"checkQuota"');
    });

    it('makes createServer refuse such a tool while the docs are on, and accept it with docs off', () => {
      const { exampleActors: _stand, ...bare } = releaseTool;
      const tools = [defineTool(bare)];
      const base = { tools, keyRing: testKeyRing(), logger: silentLogger };
      expect(() => createServer(base)).to.throw(ConfigurationError, /deploy/);
      expect(() => createServer({ ...base, docs: false })).not.to.throw();
    });
  });

  describe('reusableEffectWarnings', () => {
    it('says nothing for the example tools (each effect follows a single-use question)', () => {
      for (const tool of examples) expect(reusableEffectWarnings(tool), tool.name).to.deep.equal([]);
    });

    it('names the state whose answer leads to an effect when it is not single use', () => {
      const warnings = reusableEffectWarnings(confirmThenEffect(false));
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.include('"effectful.confirm"').and.include('"effect"');
      expect(reusableEffectWarnings(confirmThenEffect(true))).to.deep.equal([]);
    });

    it('leaves out a question asked inside a task (answered once, through tasks/update)', () => {
      const inTask = { ...confirmThenEffect(false), task: 'required' as const };
      // The check before the question runs work: the task starts there, so the question is inside it.
      expect(reusableEffectWarnings(inTask)).to.deep.equal([]);
      // Optional: a client without tasks gets the same question as a state it can present twice.
      expect(reusableEffectWarnings({ ...inTask, task: 'optional' })).to.have.length(1);
    });

    it('is logged by createServer at start-up, naming the state', () => {
      const warned: Array<{ event: string; fields: unknown }> = [];
      const logger = {
        ...silentLogger,
        warn: (event: string, fields?: unknown) => void warned.push({ event, fields }),
      };
      createServer({ tools: [confirmThenEffect(false)], keyRing: testKeyRing(), logger, docs: false });
      expect(warned.map((w) => w.event)).to.deep.equal(['effect_after_reusable_state']);
      expect(JSON.stringify(warned[0]!.fields)).to.include('effectful.confirm');
    });

    it('says nothing for a tool that does not claim to be non-idempotent', () => {
      const tool = confirmThenEffect(false);
      expect(reusableEffectWarnings(defineTool({ ...tool, annotations: { idempotentHint: true } }))).to.deep.equal([]);
    });
  });

  describe('provision-database', () => {
    it('provisions once when its confirmation is presented twice (finding 8)', async () => {
      let provisioned = 0;
      const tool = defineTool({
        ...provisionDatabaseTool,
        machine: provisionMachine.provide({
          actors: {
            provision: fromPromise(async () => ({ databaseUrl: `postgres://db/${++provisioned}` })),
          },
        }),
      });
      const engine = new FlowEngine({ keyRing: testKeyRing() });
      const call = {
        flow: tool,
        arguments: { project: 'atlas' },
        principal: 'p',
        clientCapabilities: { elicitation: {} },
      };
      const r1 = await engine.run({
        ...call,
        inputResponses: {
          size: { action: 'accept', content: { size: 'small' } },
          region: { action: 'accept', content: { region: 'eu-west' } },
        },
      });
      if (r1.kind !== 'input_required') throw new Error(`expected the confirmation, got ${r1.kind}`);
      expect(Object.keys(r1.inputRequests)).to.deep.equal(['confirm']);
      const confirm = { confirm: { action: 'accept', content: { confirm: true } } };
      const first = await engine.run({ ...call, requestState: r1.requestState, inputResponses: confirm });
      const second = await engine.run({ ...call, requestState: r1.requestState, inputResponses: confirm });
      expect(first.kind).to.equal('complete');
      expect(second).to.deep.equal(first);
      expect(provisioned).to.equal(1);
    });
  });
});
