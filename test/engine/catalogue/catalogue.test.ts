import { expect } from 'chai';
import { Catalogue } from '../../../server/engine/catalogue/catalogue.js';
import {
  ConfigurationError,
  definePrompt,
  PromptRegistry,
  ResourceRegistry,
  respondWith,
} from '../../../server/engine/index.js';

const kind = {
  plural: 'things',
  keyOf: (entry: { name: string }) => entry.name,
  labelOf: (entry: { name: string }) => `thing "${entry.name}"`,
  problemsOf: (entry: { name: string }) => (entry.name.startsWith('bad') ? [`thing "${entry.name}": is bad.`] : []),
};

describe('Catalogue', () => {
  it('lists entries ordered by key, and keeps the given order for first-match lookups', () => {
    const catalogue = new Catalogue(kind, [{ name: 'zeta' }, { name: 'alpha' }, { name: 'mid' }]);
    expect(catalogue.list().map((e) => e.name)).to.deep.equal(['alpha', 'mid', 'zeta']);
    expect(catalogue.inOrder().map((e) => e.name)).to.deep.equal(['zeta', 'alpha', 'mid']);
    expect(catalogue.get('mid')).to.deep.equal({ name: 'mid' });
    expect(catalogue.size).to.equal(3);
  });

  it('reports every problem at once, duplicates included', () => {
    expect(() => new Catalogue(kind, [{ name: 'a' }, { name: 'a' }, { name: 'bad1' }, { name: 'bad2' }]))
      .to.throw(ConfigurationError)
      .with.property('message')
      .that.matches(/thing "a": defined twice[\s\S]*thing "bad1"[\s\S]*thing "bad2"/);
  });

  it('backs prompts and resources with the same duplicate check', () => {
    const prompt = definePrompt({ name: 'p', description: 'A prompt.', machine: respondWith('p', () => 'hi') });
    expect(() => new PromptRegistry([prompt, prompt])).to.throw(ConfigurationError, /prompt "p": defined twice/);
    const resource = { kind: 'resource' as const, uri: 'test://a', name: 'a', machine: respondWith('a', () => 'a') };
    expect(() => new ResourceRegistry([resource, resource])).to.throw(
      ConfigurationError,
      /resource "test:\/\/a": defined twice/,
    );
  });
});
