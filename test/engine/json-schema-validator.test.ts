/**
 * Answers and arguments are checked exactly as asked, `format` included (issue 40): in MCP's
 * elicitation subset `format` is the only way to ask for a date or an e-mail address. A test per
 * format, then the re-ask of a flow and the refusal of a tool call that carry the reason.
 */
import { expect } from 'chai';
import { setup } from 'xstate';
import { askForm, defineTool, ToolRegistry } from '../../server/engine/index.js';
import { JsonSchemaValidator } from '../../server/engine/json-schema-validator.js';
import { accept, expectAsked, expectComplete, messageOf } from './fixtures/flow.js';
import { roundsOf } from './xstate/rounds.js';

const field = (format: string) => ({
  type: 'object',
  properties: { value: { type: 'string', format } },
  required: ['value'],
});

/** Per format: values a client may send that must pass, and ones that must not. */
const FORMATS: Record<string, { good: string[]; bad: string[] }> = {
  // The four of MCP's elicitation subset (schema 2026-07-28, StringSchema.format).
  date: { good: ['2027-02-28', '2028-02-29'], bad: ['2027-13-45', 'next monday', '2027-02-29', '27-01-01'] },
  'date-time': { good: ['2027-01-31T09:30:00Z', '2027-01-31T09:30:00+02:00'], bad: ['2027-01-31 09:30', 'tomorrow'] },
  email: { good: ['ada@example.com', 'a.b+c@sub.example.org'], bad: ['not-an-email', 'ada@', '@example.com'] },
  uri: { good: ['https://example.com/a?b=c', 'urn:isbn:0451450523'], bad: ['example.com', 'not a uri'] },
  // Arguments may use any JSON Schema format ajv-formats knows.
  time: { good: ['09:30:00Z', '23:59:59+01:00'], bad: ['25:00:00Z', 'noon'] },
  uuid: { good: ['4f3c2b1a-9d8e-4f7a-8b6c-5d4e3f2a1b0c'], bad: ['4f3c2b1a', 'not-a-uuid'] },
  ipv4: { good: ['127.0.0.1'], bad: ['256.0.0.1', '1.2.3'] },
  hostname: { good: ['api.example.com'], bad: ['-bad-.example', 'a'.repeat(64) + '.com'] },
};

describe('JsonSchemaValidator formats', () => {
  const validator = new JsonSchemaValidator();

  for (const [format, { good, bad }] of Object.entries(FORMATS)) {
    it(`checks format "${format}": accepts ${good.length}, refuses ${bad.length} naming the format`, () => {
      for (const value of good) expect(validator.check(field(format), { value }), value).to.equal(undefined);
      for (const value of bad) expect(validator.check(field(format), { value }), value).to.include(format);
    });
  }

  it('leaves a format it does not know as an annotation', () => {
    expect(validator.check(field('com.example/colour'), { value: 'teal' })).to.equal(undefined);
  });

  it('names where the problem is: a field of an answer, or under the arguments', () => {
    expect(validator.check(field('email'), { value: 'x' })).to.match(/^value /);
    expect(validator.check(field('email'), { value: 'x' }, 'arguments')).to.match(/^arguments\.value /);
    expect(validator.check(field('email'), {}, 'arguments')).to.match(/^arguments must have required property 'value'/);
    expect(validator.check(field('email'), {})).to.match(/^the answer /);
  });
});

describe('format in flows and tool calls', () => {
  const machine = setup({}).createMachine({
    id: 'when',
    initial: 'asking',
    output: ({ event }) => event.output,
    states: {
      asking: askForm({
        key: 'when',
        message: 'Which day?',
        schema: { type: 'object', properties: { day: { type: 'string', format: 'date' } }, required: ['day'] },
        onAccept: 'done',
        onDecline: 'done',
      }),
      done: { type: 'final', output: () => 'booked' },
    },
  });

  it('re-asks a date question answered "2027-13-45", with the reason, and accepts a real date', async () => {
    const driver = roundsOf(machine);
    const first = await driver.ask();
    const again = expectAsked(await driver.answer(first, { when: accept({ day: '2027-13-45' }) }), ['when']);
    expect(messageOf(again.inputRequests.when)).to.match(/^Your last answer was not accepted: day .*"date"/);
    expect(expectComplete(await driver.answer(again, { when: accept({ day: '2027-12-24' }) }))).to.equal('booked');
  });

  it('refuses an email argument "not-an-email" with the argument named', () => {
    const tool = defineTool({
      name: 'invite',
      description: 'Invites someone.',
      inputSchema: { type: 'object', properties: { email: { type: 'string', format: 'email' } }, required: ['email'] },
      machine: setup({}).createMachine({ id: 'invite', initial: 'done', states: { done: { type: 'final' } } }),
    });
    const registry = new ToolRegistry([tool]);
    expect(registry.checkArguments(tool, { email: 'not-an-email' })).to.match(/^arguments\.email .*"email"/);
    expect(registry.checkArguments(tool, { email: 'ada@example.com' })).to.equal(undefined);
    expect(registry.checkArguments(tool, {})).to.match(/^arguments must have required property 'email'/);
  });
});
