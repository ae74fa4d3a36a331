import { expect } from 'chai';
import { MermaidIds, mermaidLabel, shorten } from '../../server/docs-site/mermaid-text.js';

describe('mermaidLabel', () => {
  it('writes characters Mermaid reads as syntax as entities', () => {
    expect(mermaidLabel('a; b # c %% d <b> -->')).to.equal('a#59; b #35; c #37;#37; d #lt;b#gt; --#gt;');
  });

  it('leaves quotes and braces in plain text but encodes them in a quoted state name', () => {
    expect(mermaidLabel('"x" {y}')).to.equal('"x" {y}');
    expect(mermaidLabel('"x" {y}', undefined, 'name')).to.equal('#quot;x#quot; #123;y#125;');
  });

  it('encodes colons only in a state-diagram note', () => {
    expect(mermaidLabel('invoke: deploy')).to.equal('invoke: deploy');
    expect(mermaidLabel('invoke: deploy', undefined, 'note')).to.equal('invoke#58; deploy');
  });

  it('puts everything on one line and cuts long text with an ellipsis', () => {
    expect(mermaidLabel('one\ntwo\t three')).to.equal('one two three');
    expect(shorten('x'.repeat(100), 10)).to.equal(`${'x'.repeat(9)}…`);
    expect(shorten('short', 10)).to.equal('short');
  });
});

describe('MermaidIds', () => {
  it('gives word-character ids that start with a letter', () => {
    const ids = new MermaidIds();
    expect(ids.id('collect.size.asking')).to.equal('s_collect_size_asking');
    expect(ids.id('1st "state"; <x>')).to.match(/^s_[A-Za-z0-9_]+$/);
    expect(ids.id('')).to.equal('s');
  });

  it('keeps names that sanitize alike apart, and answers the same name with the same id', () => {
    const ids = new MermaidIds();
    const a = ids.id('a-b');
    const b = ids.id('a_b');
    expect(a).to.not.equal(b);
    expect(ids.id('a-b')).to.equal(a);
    expect(ids.id('x', 'any')).to.equal('any_x');
  });
});
