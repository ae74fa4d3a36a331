import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  answerAll,
  answerInputRequest,
  contentForSchema,
  valueForProperty,
} from '../../bench/load/answer-from-schema.js';

describe('bench answer-from-schema', () => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });

  it('fills every property of a form schema with a value the schema accepts', () => {
    const schema = {
      type: 'object',
      properties: {
        window: { type: 'string', enum: ['now', 'tonight'] },
        confirm: { type: 'boolean' },
        name: { type: 'string', minLength: 12, maxLength: 20 },
        count: { type: 'integer', minimum: 3, maximum: 9 },
        ratio: { type: 'number', maximum: 0.5 },
        email: { type: 'string', format: 'email' },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 2 },
        titled: {
          type: 'string',
          oneOf: [
            { const: 'x', title: 'X' },
            { const: 'y', title: 'Y' },
          ],
        },
      },
      required: ['window', 'confirm', 'name', 'count', 'ratio', 'email', 'tags', 'titled'],
    };
    const content = contentForSchema(schema);
    expect(ajv.validate(schema, content), JSON.stringify(ajv.errors)).to.equal(true);
    expect(content).to.include({ window: 'now', confirm: true, count: 3, titled: 'x' });
    expect(content.tags).to.deep.equal(['a', 'b']);
  });

  it('prefers a declared default', () => {
    expect(valueForProperty('size', { type: 'string', enum: ['s', 'm'], default: 'm' })).to.equal('m');
  });

  it('keeps strings within maxLength', () => {
    const value = valueForProperty('averyveryverylongpropertyname', { type: 'string', maxLength: 5 });
    expect(value).to.be.a('string').with.length(5);
  });

  it('accepts form and URL elicitation, and answers sampling and roots with well-formed results', () => {
    const form = answerInputRequest({
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: 'm',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      },
    });
    expect(form).to.deep.equal({ action: 'accept', content: { ok: true } });
    expect(
      answerInputRequest({ method: 'elicitation/create', params: { mode: 'url', url: 'https://x' } }),
    ).to.deep.equal({
      action: 'accept',
    });
    expect(answerInputRequest({ method: 'sampling/createMessage', params: {} })).to.include({ role: 'assistant' });
    expect(answerInputRequest({ method: 'roots/list' }))
      .to.have.property('roots')
      .that.is.an('array');
  });

  it('answers every key of an inputRequests map and refuses unknown methods', () => {
    const answers = answerAll({
      a: { method: 'elicitation/create', params: { requestedSchema: { type: 'object', properties: {} } } },
      b: { method: 'roots/list' },
    });
    expect(Object.keys(answers)).to.deep.equal(['a', 'b']);
    expect(() => answerInputRequest({ method: 'tools/call' })).to.throw(/cannot answer/);
    expect(() => answerAll(null)).to.throw();
  });
});
