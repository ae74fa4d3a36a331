/**
 * Issue 40, item 7: every name a tool author imports is documented where it is declared, so an
 * editor's hover shows it, and the main ones carry an `@example` (kept compiled and in step by
 * api-examples.test.ts). The names are read with the compiler from the package's three entry
 * points, so a new export without a doc comment fails here, named.
 */
import { expect } from 'chai';
import { exportedNames, exportedProperty, type ExportedName } from '../../scripts/docs/author-api.js';

/** The names an author starts from: each shows a whole use in its `@example`. */
const WITH_EXAMPLES: Record<string, () => ExportedName> = {
  toolSetup: () => byLabel('baton-mcp: toolSetup'),
  defineTool: () => byLabel('baton-mcp: defineTool'),
  // `ask` is the builder `toolSetup` returns: documented on the property of `ToolSetup`.
  ask: () => exportedProperty('baton-mcp', 'ToolSetup', 'ask'),
  reportProgress: () => byLabel('baton-mcp: reportProgress'),
  describePaths: () => byLabel('baton-mcp/testing: describePaths'),
  runFlow: () => byLabel('baton-mcp/testing: runFlow'),
  serve: () => byLabel('baton-mcp/server: serve'),
  createServer: () => byLabel('baton-mcp/server: createServer'),
};

let names: ExportedName[] | undefined;
function allNames(): ExportedName[] {
  names ??= exportedNames();
  return names;
}
function byLabel(label: string): ExportedName {
  const found = allNames().find((name) => name.label === label);
  if (!found) throw new Error(`not exported: ${label}`);
  return found;
}

describe('the exported author API is documented where it is declared', function () {
  // One program over the three entry points: the server's whole graph is checked once.
  this.timeout(60_000);

  it('every name of baton-mcp, baton-mcp/testing and baton-mcp/server has a doc comment', () => {
    const undocumented = allNames()
      .filter((name) => name.documentation === '')
      .map((name) => name.label);
    expect(
      undocumented,
      `write a /** … */ comment above each declaration of:\n${undocumented.join('\n')}\n`,
    ).to.deep.equal([]);
  });

  it('the entry points export the names an author starts from', () => {
    expect(allNames().length).to.be.greaterThan(100);
  });

  for (const [title, read] of Object.entries(WITH_EXAMPLES)) {
    it(`${title} carries one @example`, () => {
      const name = read();
      expect(name.examples, `${name.label}: add its region to examples/api (npm run docs:examples)`).to.have.length(1);
    });
  }
});
