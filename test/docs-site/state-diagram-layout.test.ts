import { expect } from 'chai';
import { createMachine } from 'xstate';
import { machineGraph, mermaidLabel, toStateDiagram, tryItData } from '../../server/docs-site/index.js';
import { conformanceFixtures } from '../../machines/conformance/index.js';
import { createMemoryVault, exampleTools } from '../../machines/index.js';

/** The frontmatter block that opens a diagram, as `key: value` lines (indentation kept). */
function frontmatter(text: string): string[] | undefined {
  const lines = text.split('\n');
  if (lines[0] !== '---') return undefined;
  const end = lines.indexOf('---', 1);
  return end < 0 ? undefined : lines.slice(1, end);
}

const tools = [
  ...exampleTools({ publicUrl: 'http://127.0.0.1:3000', vault: createMemoryVault() }),
  ...conformanceFixtures().tools,
];

describe('state diagrams: layout', () => {
  it('ask Mermaid for the ELK layout in frontmatter, before the diagram type', () => {
    const text = toStateDiagram(createMachine({ id: 'm', initial: 'a', states: { a: {} } }));
    expect(frontmatter(text)).to.deep.equal(['config:', '  layout: elk']);
    const lines = text.split('\n');
    expect(lines[lines.indexOf('---', 1) + 1]).to.equal('stateDiagram-v2');
  });

  it('has the ELK layout in every example and conformance tool, and in the Try it panel, naming every state', () => {
    expect(tools.length).to.be.at.least(10);
    for (const tool of tools) {
      const texts = [toStateDiagram(tool.machine), tryItData(tool, { endpoint: '/mcp', auth: 'open' }).diagram];
      for (const text of texts) {
        expect(frontmatter(text), tool.name).to.include('  layout: elk');
        // The frontmatter is the only one: a second `---` block would be read as diagram text.
        expect(
          text.split('\n').filter((line) => line === '---'),
          tool.name,
        ).to.have.length(2);
        const graph = machineGraph(tool.machine);
        const names = graph.nodes.filter((n) => n !== graph.root && n.type !== 'history').map((n) => n.key);
        for (const name of names) {
          expect(text, `${tool.name}: ${name}`).to.include(`state "${mermaidLabel(name, undefined, 'name')}" as `);
        }
      }
    }
  });
});
