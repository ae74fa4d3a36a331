/**
 * The `@example`s in the author's API are compiled code kept in step (scripts/docs/api-examples.ts):
 * each doc comment holds exactly its region of an examples/*.example.ts file, and those files
 * compile against the package's names (docs-code-blocks.test.ts checks them in its program).
 */
import { expect } from 'chai';
import { exampleRegions, regionsOf, staleSources, withExample } from '../../scripts/docs/api-examples.js';

describe('the @examples of the author API', function () {
  this.timeout(60_000);

  it('each doc comment holds its example region as written (if not: npm run docs:examples)', () => {
    expect(staleSources(), 'run `npm run docs:examples` and commit the result').to.deep.equal([]);
  });

  it('each region names a declaration once', () => {
    const names = exampleRegions().map((region) => region.name);
    expect(names).to.have.length.greaterThan(7);
    expect(new Set(names).size).to.equal(names.length);
  });

  describe('the copy', () => {
    it('reads a region without its common indentation', () => {
      const [region] = regionsOf('x.ts', 'a\n  // #region f\n  one\n    two\n\n  // #endregion f\n');
      expect(region).to.deep.equal({ name: 'f', file: 'x.ts', text: 'one\n  two\n' });
    });

    it('replaces the @example a comment already holds, and keeps the other tags', () => {
      const comment = '/**\n   * Says hi.\n   * @example\n   * ```ts\n   * old()\n   * ```\n   * @see other\n   */';
      expect(withExample(comment, '  ', 'hi();\n\nbye();')).to.equal(
        '/**\n   * Says hi.\n   * @see other\n   * @example\n   * ```ts\n   * hi();\n   *\n   * bye();\n   * ```\n   */',
      );
    });

    it('opens a one-line comment to hold the example', () => {
      expect(withExample('/** Says hi. */', '', 'hi();')).to.equal(
        '/**\n * Says hi.\n * @example\n * ```ts\n * hi();\n * ```\n */',
      );
    });

    it('refuses an example that would end the comment', () => {
      expect(() => withExample('/** x */', '', 'a(); /* b */')).to.throw('*/');
    });
  });
});
