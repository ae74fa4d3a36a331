import { expect } from 'chai';
import { exampleAnswer, exampleObject, exampleValue } from '../../server/simulation/index.js';
import { JsonSchemaValidator } from '../../server/engine/json-schema-validator.js';

describe('exampleValue', () => {
  it('prefers examples, then default, const and the first enum value', () => {
    expect(exampleValue({ type: 'string', examples: ['ex'], default: 'd' })).to.equal('ex');
    expect(exampleValue({ type: 'string', default: 'd', enum: ['a'] })).to.equal('d');
    expect(exampleValue({ const: 7 })).to.equal(7);
    expect(exampleValue({ type: 'string', enum: ['now', 'later'] })).to.equal('now');
    expect(exampleValue({ oneOf: [{ const: 'x', title: 'X' }, { const: 'y' }] })).to.equal('x');
  });

  it('gives a plain value of the type, within its bounds', () => {
    expect(exampleValue({ type: 'boolean' })).to.equal(true);
    expect(exampleValue({ type: 'integer', minimum: 3, maximum: 5 })).to.equal(3);
    expect(exampleValue({ type: 'integer', maximum: 0 })).to.equal(0);
    expect(exampleValue({ type: 'number', exclusiveMinimum: 1 })).to.equal(1.5);
    expect(exampleValue({ type: 'string', format: 'email' })).to.equal('user@example.com');
    expect(exampleValue({ type: 'string', minLength: 10, maxLength: 12 })).to.have.length.within(10, 12);
    expect(exampleValue({ type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 2 })).to.deep.equal([
      'a',
      'a',
    ]);
  });

  it('follows local $refs, so a 2020-12 schema gets an object where it wants one', () => {
    const schema = {
      type: 'object',
      $defs: { address: { type: 'object', properties: { city: { type: 'string' } } } },
      properties: { address: { $ref: '#/$defs/address' } },
    };
    expect(exampleObject(schema)).to.deep.equal({ address: { city: 'example' } });
  });

  it('fills every field of a form schema with a value the schema accepts', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 2 },
        age: { type: 'integer', minimum: 18 },
        size: { type: 'string', enum: ['s', 'm'] },
        ok: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['name', 'age', 'size', 'ok'],
    };
    const content = exampleObject(schema);
    expect(new JsonSchemaValidator().check(schema, content)).to.equal(undefined);
  });
});

describe('exampleAnswer', () => {
  it('accepts forms with content and URLs without, and answers sampling and roots', () => {
    const form = exampleAnswer({
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: 'x',
        requestedSchema: { type: 'object', properties: { a: { type: 'boolean' } } },
      },
    });
    expect(form).to.deep.equal({ action: 'accept', content: { a: true } });
    expect(exampleAnswer({ method: 'elicitation/create', params: { mode: 'url', url: 'https://x' } })).to.deep.equal({
      action: 'accept',
    });
    expect(exampleAnswer({ method: 'sampling/createMessage', params: {} })).to.include({ role: 'assistant' });
    expect((exampleAnswer({ method: 'roots/list' }) as { roots: unknown[] }).roots).to.have.length(1);
  });
});
