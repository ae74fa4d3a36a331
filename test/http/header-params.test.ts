import { expect } from 'chai';
import {
  ConfigurationError,
  defineTool,
  findHeaderParams,
  respondWith,
  ToolRegistry,
} from '../../server/engine/index.js';

const withProperties = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});

describe('x-mcp-header definitions', () => {
  it('finds annotated parameters at any depth of properties, with their path and type', () => {
    const { params, problems } = findHeaderParams(
      withProperties({
        region: { type: 'string', 'x-mcp-header': 'Region' },
        shard: { type: 'integer', 'x-mcp-header': 'Shard' },
        target: { type: 'object', properties: { dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' } } },
        plain: { type: 'string' },
      }),
    );
    expect(problems).to.deep.equal([]);
    expect(params).to.deep.equal([
      { name: 'Region', path: ['region'], type: 'string' },
      { name: 'Shard', path: ['shard'], type: 'integer' },
      { name: 'Dry-Run', path: ['target', 'dry'], type: 'boolean' },
    ]);
  });

  it('accepts a property that is merely named x-mcp-header', () => {
    const { params, problems } = findHeaderParams(
      withProperties({ 'x-mcp-header': { type: 'string' }, region: { type: 'string', 'x-mcp-header': 'Region' } }),
    );
    expect(problems).to.deep.equal([]);
    expect(params.map((p) => p.name)).to.deep.equal(['Region']);
  });

  it('refuses every definition the spec forbids, naming where (the official conformance cases and more)', () => {
    const cases: Record<string, unknown> = {
      empty: withProperties({ v: { type: 'string', 'x-mcp-header': '' } }),
      'not a string': withProperties({ v: { type: 'string', 'x-mcp-header': 7 } }),
      space: withProperties({ v: { type: 'string', 'x-mcp-header': 'My Region' } }),
      colon: withProperties({ v: { type: 'string', 'x-mcp-header': 'Region:Primary' } }),
      'non-ASCII': withProperties({ v: { type: 'string', 'x-mcp-header': 'Région' } }),
      'control character': withProperties({ v: { type: 'string', 'x-mcp-header': 'Region\t1' } }),
      'line feed': withProperties({ v: { type: 'string', 'x-mcp-header': 'Region\n' } }),
      number: withProperties({ v: { type: 'number', 'x-mcp-header': 'Score' } }),
      object: withProperties({ v: { type: 'object', 'x-mcp-header': 'Data' } }),
      array: withProperties({ v: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'Items' } }),
      null: withProperties({ v: { type: 'null', 'x-mcp-header': 'Nil' } }),
      'type list': withProperties({ v: { type: ['string', 'null'], 'x-mcp-header': 'Maybe' } }),
      'no type': withProperties({ v: { 'x-mcp-header': 'Untyped' } }),
      'duplicate, same case': withProperties({
        a: { type: 'string', 'x-mcp-header': 'Region' },
        b: { type: 'string', 'x-mcp-header': 'Region' },
      }),
      'duplicate, other case': withProperties({
        a: { type: 'string', 'x-mcp-header': 'MyField' },
        b: { type: 'string', 'x-mcp-header': 'myfield' },
      }),
      'under items': withProperties({
        list: { type: 'array', items: { type: 'object', properties: { v: { type: 'string', 'x-mcp-header': 'V' } } } },
      }),
      'under anyOf': withProperties({}, { anyOf: [withProperties({ v: { type: 'string', 'x-mcp-header': 'V' } })] }),
      'under if/then': withProperties(
        {},
        { if: {}, then: withProperties({ v: { type: 'string', 'x-mcp-header': 'V' } }) },
      ),
      'in $defs, reached by $ref': withProperties(
        { v: { $ref: '#/$defs/region' } },
        { $defs: { region: { type: 'string', 'x-mcp-header': 'Region' } } },
      ),
      'under additionalProperties': withProperties(
        {},
        { additionalProperties: { type: 'string', 'x-mcp-header': 'Extra' } },
      ),
      'on the root': { type: 'object', 'x-mcp-header': 'Root', properties: {} },
    };
    for (const [name, schema] of Object.entries(cases)) {
      const { problems } = findHeaderParams(schema);
      expect(problems, name).to.have.length.greaterThan(0);
      expect(problems.join('\n'), name).to.match(/x-mcp-header/);
    }
  });

  it('stops a server at start-up with a ConfigurationError naming the tool', () => {
    const tool = defineTool({
      name: 'bad-header',
      description: 'Mirrors a number, which clients would drop.',
      inputSchema: withProperties({ score: { type: 'number', 'x-mcp-header': 'Score' } }),
      machine: respondWith('badHeader', () => 'never'),
    });
    expect(() => new ToolRegistry([tool]))
      .to.throw(ConfigurationError)
      .with.property('message')
      .that.matches(/tool "bad-header": "x-mcp-header" on score: only a parameter of type/);
  });
});
