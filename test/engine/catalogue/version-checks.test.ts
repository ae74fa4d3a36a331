/** Start-up checks of a tool's earlier versions: a kept machine is checked like the current one. */
import { expect } from 'chai';
import { setup, type AnyStateMachine } from 'xstate';
import {
  ConfigurationError,
  FlowEngine,
  ToolRegistry,
  askForm,
  type EarlierVersion,
} from '../../../server/engine/index.js';
import { testKeyRing } from '../fixtures/keys.js';
import { surveyV1Machine, surveyV2Machine, surveyV2Tool, toV2 } from '../fixtures/versioned-machines.js';

function problemsOf(versions: unknown): string {
  try {
    new ToolRegistry([surveyV2Tool(versions as EarlierVersion[])]);
    return '';
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigurationError);
    return (error as Error).message;
  }
}

const V1 = new FlowEngine({ keyRing: testKeyRing() }).versionOf(surveyV1Machine);

/** An earlier machine with a question that handles no decline: the current machine's check refuses it. */
const brokenV0 = setup({}).createMachine({
  id: 'survey',
  initial: 'asking',
  states: {
    asking: {
      ...askForm({
        key: 'name',
        message: 'Name?',
        schema: { type: 'object', properties: {} },
        onAccept: 'done',
        onDecline: 'done',
      }),
      on: { 'answer.name.accept': 'done' },
    },
    done: { type: 'final' },
  },
} as never) as unknown as AnyStateMachine;

describe('start-up checks: earlier versions', () => {
  it('accepts a kept machine, a migration with a kept machine, and a migration from a named version', () => {
    expect(problemsOf([{ machine: surveyV1Machine, label: 'v1' }])).to.equal('');
    expect(problemsOf([{ machine: surveyV1Machine, migrate: toV2 }])).to.equal('');
    expect(problemsOf([{ version: V1, migrate: toV2 }])).to.equal('');
  });

  it('checks a kept machine as the current one is checked, naming the version', () => {
    const message = problemsOf([{ machine: brokenV0, label: 'v0' }]);
    expect(message).to.include('tool "survey", version v0');
    expect(message).to.include('answer.name.decline');
  });

  it('refuses an entry with neither a machine nor a version', () => {
    expect(problemsOf([{ label: 'v1' }])).to.include('version v1: keep its machine');
  });

  it('refuses a named version with nothing to continue its flows', () => {
    expect(problemsOf([{ version: V1 }])).to.include('only a migration can continue');
  });

  it('refuses a version that is not a structural version', () => {
    expect(problemsOf([{ version: 'v1.0', migrate: toV2 }])).to.include('12 characters');
  });

  it('refuses the current machine listed as an earlier version', () => {
    expect(problemsOf([{ machine: surveyV2Machine }])).to.include("is the current machine's own version");
  });

  it('refuses a version listed twice', () => {
    expect(problemsOf([{ machine: surveyV1Machine }, { version: V1, migrate: toV2 }])).to.include('listed twice');
  });

  it('refuses a version named beside a kept machine of another version', () => {
    expect(problemsOf([{ machine: surveyV1Machine, version: 'abcdefabcdef' }])).to.include('not abcdefabcdef');
  });

  it('refuses a migration to or from a state that does not exist', () => {
    const message = problemsOf([
      { machine: surveyV1Machine, migrate: { states: { askColour: 'askColor', askName: 'nowhere' } } },
    ]);
    expect(message).to.include('"askColour", which the kept machine does not have');
    expect(message).to.include('to "nowhere", which the current machine does not have');
  });

  it('refuses a context transform that is not a function', () => {
    expect(problemsOf([{ machine: surveyV1Machine, migrate: { context: {} } }])).to.include(
      'migrate.context must be a function',
    );
  });

  it('refuses versions that are not a list', () => {
    expect(problemsOf({ machine: surveyV1Machine })).to.include('versions must be a list');
  });
});
