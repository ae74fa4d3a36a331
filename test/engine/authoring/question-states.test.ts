import { expect } from 'chai';
import { ConfigurationError, INPUT_META, ToolRegistry, toolSetup } from '../../../server/engine/index.js';

const booking = toolSetup({
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  questions: {
    confirm: {
      kind: 'form',
      message: 'Book it?',
      schema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
      notSecret: ['confirm'],
    },
    where: { kind: 'url', message: 'Pay here', url: 'https://pay.example/x', subject: 'order-1' },
  },
});

/** The state nodes of a machine, without functions, as the engine and XState's tooling read them. */
const definitionOf = (machine: { root: { definition: unknown } }) =>
  JSON.parse(JSON.stringify(machine.root.definition));

describe('question states as plain data (toolSetup)', () => {
  const plain = booking.createMachine({
    id: 'booking',
    initial: 'asking',
    context: {},
    states: {
      asking: {
        tags: ['baton.input', 'baton.singleUse'],
        meta: { 'baton.input': { key: 'confirm' } },
        on: {
          'answer.confirm.accept': 'paying',
          'answer.confirm.decline': 'booked',
          'answer.confirm.cancel': 'booked',
        },
      },
      paying: {
        tags: ['baton.input'],
        meta: { 'baton.input': { key: 'where' } },
        on: { 'answer.where.accept': 'booked', 'answer.where.decline': 'booked', 'answer.where.cancel': 'booked' },
      },
      booked: { type: 'final' },
    },
  });

  it('builds the same machine as ask.<key>(…)', () => {
    const built = booking.createMachine({
      id: 'booking',
      initial: 'asking',
      context: {},
      states: {
        asking: booking.ask.confirm({ onAccept: 'paying', onDecline: 'booked', singleUse: true }),
        paying: booking.ask.where({ onAccept: 'booked', onDecline: 'booked' }),
        booked: { type: 'final' },
      },
    });
    expect(definitionOf(plain)).to.deep.equal(definitionOf(built));
  });

  it('puts the declared question in the state, whole', () => {
    expect(plain.root.states.asking!.meta[INPUT_META]).to.deep.include({
      kind: 'form',
      key: 'confirm',
      message: 'Book it?',
      notSecret: ['confirm'],
    });
    expect(plain.root.states.paying!.meta[INPUT_META]).to.deep.equal({
      kind: 'url',
      key: 'where',
      message: 'Pay here',
      url: 'https://pay.example/x',
      subject: 'order-1',
    });
  });

  it('passes the start-up checks', () => {
    const tool = booking.defineTool({ name: 'booking', description: 'Books.', machine: plain });
    expect(() => new ToolRegistry([tool])).not.to.throw();
  });

  it('refuses a state that names an undeclared question (for configs the types cannot see)', () => {
    const config: any = {
      initial: 'asking',
      context: {},
      states: { asking: { tags: ['baton.input'], meta: { 'baton.input': { key: 'confrim' } } } },
    };
    expect(() => booking.createMachine(config)).to.throw(ConfigurationError, /"asking".*"confrim"/);
  });
});
