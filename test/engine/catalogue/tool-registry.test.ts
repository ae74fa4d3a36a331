import { expect } from 'chai';
import { fromPromise, setup } from 'xstate';
import {
  ConfigurationError,
  INPUT_META,
  INPUT_TAG,
  ToolRegistry,
  askForm,
  askRoots,
  askSampling,
  defineTool,
  type ToolDefinition,
  type ToolSpec,
} from '../../../server/engine/index.js';
import { createMemoryVault, exampleTools } from '../../../machines/index.js';
import {
  assistantTool,
  fallbackTool,
  progressTool,
  functionContextTool,
  limboTool,
  passwordTool,
  surveyTool,
  throwingTool,
  workTool,
} from '../fixtures/machines.js';

const SCHEMA = { type: 'object', properties: { name: { type: 'string' } } };

const question = (key = 'name') => ({
  key,
  message: 'Your name?',
  schema: { type: 'object' as const, properties: { name: { type: 'string' } } },
  onAccept: 'done',
  onDecline: 'done',
});

/** A machine with one input state `fixture.ask`, built from the given state config. */
function machineWith(ask: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return setup({}).createMachine({
    id: 'fixture',
    initial: 'ask',
    states: { ask: ask as any, done: { type: 'final' }, ...(extra as any) },
  });
}

function tool(overrides: Partial<ToolSpec> = {}): ToolDefinition {
  return defineTool({
    name: 'good-tool',
    description: 'A tool that passes every check.',
    inputSchema: SCHEMA,
    machine: machineWith(askForm(question())),
    ...overrides,
  });
}

function problemsOf(tools: ToolDefinition[]): string {
  try {
    new ToolRegistry(tools);
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigurationError);
    return (error as ConfigurationError).message;
  }
  expect.fail('expected the registry to refuse these tools');
}

/** The problem lines of a registry message (one per problem). */
function lines(message: string): string[] {
  return message.split('\n').slice(1);
}

describe('ToolRegistry', () => {
  describe('accepts', () => {
    it('every example tool', () => {
      const tools = exampleTools({ publicUrl: 'http://127.0.0.1:3000', vault: createMemoryVault() });
      const registry = new ToolRegistry(tools);
      // Every example is served, sorted by name; derived so that adding an example breaks nothing.
      expect(registry.list().map((t) => t.name)).to.deep.equal(tools.map((t) => t.name).sort());
      expect(tools.length).to.be.greaterThan(3);
      for (const t of tools) expect(registry.get(t.name)).to.equal(t);
    });

    it('the fixture machines the engine tests use', () => {
      expect(
        () =>
          new ToolRegistry([
            surveyTool('base'),
            surveyTool('extra-state', 'survey-extra'),
            surveyTool('renamed', 'survey-renamed'),
            surveyTool('reworded', 'survey-reworded'),
            workTool(async () => 1),
            limboTool,
            functionContextTool,
            throwingTool,
            passwordTool,
            assistantTool(),
            fallbackTool,
            progressTool(async () => 1),
          ]),
      ).to.not.throw();
    });

    it('a name of exactly 128 allowed characters, with dots, dashes and underscores', () => {
      expect(() => new ToolRegistry([tool({ name: `a.b-c_D9${'x'.repeat(120)}` })])).to.not.throw();
    });

    it('sampling and roots questions that handle their result', () => {
      const machine = setup({}).createMachine({
        id: 'fixture',
        initial: 'sample',
        states: {
          sample: askSampling({ key: 'sample', request: { messages: [], maxTokens: 1 }, onResult: 'roots' }),
          roots: askRoots({ key: 'roots', onResult: 'done' }),
          done: { type: 'final' },
        },
      });
      expect(() => new ToolRegistry([tool({ machine })])).to.not.throw();
    });
  });

  describe('lookups', () => {
    it('lists tools sorted by name whatever the order given', () => {
      const registry = new ToolRegistry([tool({ name: 'zeta' }), tool({ name: 'alpha' }), tool({ name: 'Mid' })]);
      expect(registry.list().map((t) => t.name)).to.deep.equal(['Mid', 'alpha', 'zeta']);
      expect(registry.get('nope')).to.equal(undefined);
    });

    it('checks arguments against the inputSchema', () => {
      const registry = new ToolRegistry([tool()]);
      const t = registry.get('good-tool')!;
      expect(registry.checkArguments(t, { name: 'Ada' })).to.equal(undefined);
      expect(registry.checkArguments(t, { name: 42 })).to.be.a('string');
      expect(registry.checkArguments(t, 'not an object')).to.be.a('string');
    });
  });

  describe('refuses, naming the tool (and state) and the fix', () => {
    it('a name with a space', () => {
      const message = problemsOf([tool({ name: 'bad name' })]);
      expect(message).to.include('"bad name"').and.include('128');
    });

    it('a name of 130 characters', () => {
      const name = 'n'.repeat(130);
      expect(problemsOf([tool({ name })]))
        .to.include(`"${name}"`)
        .and.include('128');
    });

    it('an empty name', () => {
      expect(problemsOf([tool({ name: '' })])).to.include('""');
    });

    it('two tools with the same name', () => {
      const message = problemsOf([tool({ name: 'twin' }), tool({ name: 'twin' })]);
      expect(lines(message)).to.have.length(1);
      expect(message).to.include('"twin"').and.include('unique');
    });

    it('a tool without a description', () => {
      expect(problemsOf([tool({ description: '' })]))
        .to.include('"good-tool"')
        .and.include('description');
    });

    for (const [label, inputSchema] of [
      ['of type array', { type: 'array', items: {} }],
      ['without a type', { properties: {} }],
      ['that is not an object', 'object'],
    ] as const) {
      it(`an inputSchema ${label}`, () => {
        const message = problemsOf([tool({ inputSchema: inputSchema as any })]);
        expect(message).to.include('"good-tool"').and.include('inputSchema').and.include('"type": "object"');
      });
    }

    it('an inputSchema that is not valid JSON Schema', () => {
      const message = problemsOf([tool({ inputSchema: { type: 'object', properties: { a: { type: 'nope' } } } })]);
      expect(message).to.include('"good-tool"').and.include('inputSchema');
    });

    it('an outputSchema that is not valid JSON Schema', () => {
      const message = problemsOf([tool({ outputSchema: { type: 'object', properties: { a: { minimum: 'one' } } } })]);
      expect(message).to.include('"good-tool"').and.include('outputSchema');
    });

    it('something that is not an XState machine', () => {
      const message = problemsOf([tool({ machine: { id: 'fake' } as any })]);
      expect(message).to.include('"good-tool"').and.include('createMachine');
    });

    it('an input state with the tag but no question', () => {
      const machine = machineWith({ tags: [INPUT_TAG], on: { 'answer.name.accept': 'done' } });
      const message = problemsOf([tool({ machine })]);
      expect(message)
        .to.include('"good-tool"')
        .and.include('"fixture.ask"')
        .and.include("meta: { 'baton.input'")
        .and.not.include('askForm');
    });

    it('a question without the tag', () => {
      const { tags: _tags, ...untagged } = askForm(question());
      const message = problemsOf([tool({ machine: machineWith(untagged) })]);
      expect(message).to.include('"good-tool"').and.include('"fixture.ask"').and.include(INPUT_TAG);
    });

    it('an input state that invokes an actor', () => {
      const machine = machineWith({ ...askForm(question()), invoke: { src: fromPromise(async () => 1) } });
      const message = problemsOf([tool({ machine })]);
      expect(message).to.include('"good-tool"').and.include('"fixture.ask"').and.include('invoke');
    });

    it('an input state with an after timer', () => {
      const machine = machineWith({ ...askForm(question()), after: { 60_000: 'done' } });
      const message = problemsOf([tool({ machine })]);
      expect(message).to.include('"good-tool"').and.include('"fixture.ask"').and.include('after');
    });

    it('the same input key in two states, naming both', () => {
      const machine = machineWith(
        { ...askForm({ ...question('same'), onAccept: 'again' }) },
        { again: askForm(question('same')) },
      );
      const message = problemsOf([tool({ machine })]);
      expect(message)
        .to.include('"good-tool"')
        .and.include('"same"')
        .and.include('fixture.ask')
        .and.include('fixture.again');
    });

    it('an input key that cannot be part of an event name', () => {
      const message = problemsOf([tool({ machine: machineWith(askForm(question('a.b'))) })]);
      expect(message).to.include('"good-tool"').and.include('"fixture.ask"').and.include('"a.b"');
    });

    it('a question that does not handle decline', () => {
      const node = askForm(question());
      const machine = machineWith({ ...node, on: { 'answer.name.accept': 'done', 'answer.name.cancel': 'done' } });
      const message = problemsOf([tool({ machine })]);
      expect(lines(message)).to.have.length(1);
      expect(message).to.include('"good-tool"').and.include('"fixture.ask"').and.include('answer.name.decline');
    });

    it('a sampling question that does not handle its result', () => {
      const node = askSampling({ key: 'sample', request: { messages: [] }, onResult: 'done' });
      const message = problemsOf([tool({ machine: machineWith({ ...node, on: {} }) })]);
      expect(message).to.include('"fixture.ask"').and.include('answer.sample.result');
    });

    it('a form question whose schema is not an object schema', () => {
      const node = askForm({ ...question(), schema: { type: 'string' } as any });
      const message = problemsOf([tool({ machine: machineWith(node) })]);
      expect(message).to.include('"fixture.ask"').and.include('type: "object"');
    });

    it('a form question without a message', () => {
      const message = problemsOf([tool({ machine: machineWith(askForm({ ...question(), message: '' })) })]);
      expect(message).to.include('"fixture.ask"').and.include('message');
    });

    it('an initial context that cannot be sealed, naming the path', () => {
      const machine = setup({ types: {} as { input: { name: string } } }).createMachine({
        id: 'fixture',
        initial: 'ask',
        context: ({ input }) => ({ name: input.name, format: () => input.name }),
        states: { ask: askForm(question()), done: { type: 'final' } },
      });
      const message = problemsOf([tool({ machine, exampleArguments: { name: 'Ada' } })]);
      expect(message).to.include('"good-tool"').and.include('context.format').and.include('superjson');
    });

    it('an initial context holding a class instance superjson does not know', () => {
      class Money {
        constructor(readonly cents: number) {}
      }
      const machine = setup({}).createMachine({
        id: 'fixture',
        initial: 'ask',
        context: { price: new Money(5) },
        states: { ask: askForm(question()), done: { type: 'final' } },
      });
      expect(problemsOf([tool({ machine })]))
        .to.include('context.price')
        .and.include('Money');
    });

    it('a machine that fails to start with its exampleArguments', () => {
      const machine = setup({ types: {} as { input: { name: string } } }).createMachine({
        id: 'fixture',
        initial: 'ask',
        context: ({ input }) => {
          if (input.name !== 'expected') throw new Error('unexpected name');
          return {};
        },
        states: { ask: askForm(question()), done: { type: 'final' } },
      });
      const message = problemsOf([tool({ machine, exampleArguments: { name: 'Ada' } })]);
      expect(message).to.include('"good-tool"').and.include('unexpected name');
      expect(() => new ToolRegistry([tool({ machine, exampleArguments: { name: 'expected' } })])).to.not.throw();
    });

    it('exampleArguments that do not match the inputSchema', () => {
      const message = problemsOf([tool({ exampleArguments: { name: 7 } })]);
      expect(message).to.include('"good-tool"').and.include('exampleArguments');
    });

    it('final states with output when the machine has no root output', () => {
      const machine = setup({}).createMachine({
        id: 'fixture',
        initial: 'ask',
        states: { ask: askForm(question()), done: { type: 'final', output: { ok: true } } },
      });
      const message = problemsOf([tool({ machine })]);
      expect(message).to.include('"good-tool"').and.include('output: ({ event }) => event.output');
    });

    it('every problem of every tool at once', () => {
      const tagOnly = machineWith({ tags: [INPUT_TAG], on: {} });
      const message = problemsOf([
        tool({ name: 'first bad', description: '' }),
        tool({ name: 'second', machine: tagOnly }),
        tool({ name: 'third', inputSchema: { type: 'array' } }),
      ]);
      expect(lines(message)).to.have.length(4);
      expect(message).to.include('"first bad"').and.include('"second"').and.include('"third"');
    });

    it('a question of a kind the engine cannot ask', () => {
      const machine = machineWith({
        tags: [INPUT_TAG],
        meta: { [INPUT_META]: { kind: 'telepathy', key: 'mind' } },
        on: { 'answer.mind.accept': 'done', 'answer.mind.decline': 'done', 'answer.mind.cancel': 'done' },
      });
      expect(problemsOf([tool({ machine })]))
        .to.include('"fixture.ask"')
        .and.include('telepathy');
    });

    it('a question found in meta without the helpers, checked like one built with them', () => {
      const machine = machineWith({
        tags: [INPUT_TAG],
        meta: { [INPUT_META]: { kind: 'url', key: 'link', message: 'Open it', url: '' } },
        on: { 'answer.link.accept': 'done', 'answer.link.decline': 'done', 'answer.link.cancel': 'done' },
      });
      expect(problemsOf([tool({ machine })]))
        .to.include('"fixture.ask"')
        .and.include('url');
    });
  });
});
