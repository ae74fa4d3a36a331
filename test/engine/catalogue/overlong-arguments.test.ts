import { expect } from 'chai';
import { DEFAULT_ARGUMENT_MAX_LENGTH, overlongArgument } from '../../../server/engine/catalogue/overlong-arguments.js';

const long = (length: number) => 'x'.repeat(length);

describe('overlongArgument', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string', maxLength: 8 },
      tags: { type: 'array', items: { type: 'string', maxLength: 3 } },
      pair: { type: 'array', items: [{ type: 'string', maxLength: 2 }, { type: 'string' }] },
      nested: {
        type: 'object',
        properties: { note: { type: 'string', maxLength: 5 } },
        additionalProperties: { maxLength: 1 },
      },
    },
  };

  it('passes strings within their maxLength, and within the default where the schema sets none', () => {
    const args = {
      name: long(8),
      tags: ['abc', 'de'],
      pair: ['ab', long(DEFAULT_ARGUMENT_MAX_LENGTH)],
      nested: { note: long(5), extra: 'y' },
      free: long(DEFAULT_ARGUMENT_MAX_LENGTH),
      count: 12,
    };
    expect(overlongArgument(schema, args)).to.equal(undefined);
  });

  it('names the path of the first string over its bound, and the bound', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: long(9) }, 'arguments.name is longer than 8 characters'],
      [{ tags: ['ok', 'toolong'] }, 'arguments.tags[1] is longer than 3 characters'],
      [{ pair: ['abc'] }, 'arguments.pair[0] is longer than 2 characters'],
      [
        { pair: ['ab', long(DEFAULT_ARGUMENT_MAX_LENGTH + 1)] },
        `arguments.pair[1] is longer than ${DEFAULT_ARGUMENT_MAX_LENGTH} characters`,
      ],
      [{ nested: { note: long(6) } }, 'arguments.nested.note is longer than 5 characters'],
      [{ nested: { other: 'zz' } }, 'arguments.nested.other is longer than 1 characters'],
      [
        { free: [{ deep: long(DEFAULT_ARGUMENT_MAX_LENGTH + 1) }] },
        `arguments.free[0].deep is longer than ${DEFAULT_ARGUMENT_MAX_LENGTH} characters`,
      ],
      [{ name: 'ok', tags: ['abcd'], nested: { note: long(6) } }, 'arguments.tags[0] is longer than 3 characters'],
    ];
    for (const [args, reason] of cases) expect(overlongArgument(schema, args)).to.equal(reason);
  });

  it('bounds a string given as the whole arguments value, and a schema that is not an object', () => {
    expect(overlongArgument(true, long(DEFAULT_ARGUMENT_MAX_LENGTH + 1))).to.equal(
      `arguments is longer than ${DEFAULT_ARGUMENT_MAX_LENGTH} characters`,
    );
  });
});
