import { expect } from 'chai';
import { setup } from 'xstate';
import {
  askForm,
  ConfigurationError,
  defineTool,
  FlowEngine,
  ToolRegistry,
  type FormSchema,
} from '../../../server/engine/index.js';
import { secretFields } from '../../../server/engine/round/secret-fields.js';
import { testKeyRing } from '../../helpers/test-server.js';

function formTool(schema: FormSchema | (() => FormSchema), notSecret?: string[]) {
  const machine = setup({}).createMachine({
    id: 'asker',
    initial: 'ask',
    states: {
      ask: askForm({
        key: 'q',
        message: 'Tell me',
        schema,
        onAccept: 'done',
        onDecline: 'done',
        ...(notSecret ? { notSecret } : {}),
      }),
      done: { type: 'final' },
    },
  });
  return defineTool({ name: 'asker', description: 'Asks.', inputSchema: { type: 'object' }, machine });
}

const schemaWith = (properties: FormSchema['properties']): FormSchema => ({ type: 'object', properties });

describe('forms never ask for secrets', () => {
  const secret: Array<[string, FormSchema['properties']]> = [
    ['format "password"', { pin: { type: 'string', format: 'password' } }],
    ['a field named password', { password: { type: 'string' } }],
    ['a field named api_key', { api_key: { type: 'string' } }],
    ['a field named apiKey', { apiKey: { type: 'string' } }],
    ['a field named token', { token: { type: 'string' } }],
    ['a field named clientSecret', { clientSecret: { type: 'string' } }],
  ];
  for (const [label, properties] of secret) {
    it(`refuses at start-up a form with ${label}, pointing to askUrl`, () => {
      expect(() => new ToolRegistry([formTool(schemaWith(properties))]))
        .to.throw(ConfigurationError)
        .with.property('message')
        .that.includes('askUrl');
    });
  }

  it('lets a field that only looks like a secret through when the question lists it in notSecret', () => {
    const schema = schemaWith({ tokenCount: { type: 'integer' }, name: { type: 'string' } });
    expect(() => new ToolRegistry([formTool(schema)])).to.throw(ConfigurationError, /tokenCount/);
    expect(() => new ToolRegistry([formTool(schema, ['tokenCount'])])).not.to.throw();
  });

  it('leaves ordinary fields alone', () => {
    expect(
      secretFields(schemaWith({ name: { type: 'string' }, email: { type: 'string', format: 'email' } })),
    ).to.deep.equal([]);
  });

  it('ends the flow with a tool error when a schema computed at ask time asks for a secret', async () => {
    const tool = formTool(() => schemaWith({ password: { type: 'string' } }));
    const engine = new FlowEngine({ keyRing: testKeyRing() });
    const outcome = await engine.run({
      flow: tool,
      arguments: {},
      principal: 'p',
      clientCapabilities: { elicitation: {} },
    });
    expect(outcome.kind).to.equal('failed');
  });
});
