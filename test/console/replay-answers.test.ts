/** The replay page's form read back as inputResponses (server/console/replay-answers.ts). */
import { expect } from 'chai';
import { readReplayAnswers } from '../../server/console/index.js';

const form = (fields: Array<[string, string]>) => new URLSearchParams(fields);

describe('the replay form read as answers', () => {
  it('types each property as the schema said, under the action chosen', () => {
    const read = readReplayAnswers(
      form([
        ['action:order', 'accept'],
        ['answer:["order","confirm","boolean"]', 'false'],
        ['answer:["order","count","integer"]', '3'],
        ['answer:["order","size","enum"]', 'large'],
        ['answer:["order","note","string"]', ''],
        ['action:link', 'decline'],
        ['answer:["link","ignored","string"]', 'x'],
        ['json:model', '{"role":"assistant","content":{"type":"text","text":"hi"}}'],
      ]),
    );
    expect(read).to.deep.equal({
      answers: {
        order: { action: 'accept', content: { confirm: false, count: 3, size: 'large', note: '' } },
        link: { action: 'decline' },
        model: { role: 'assistant', content: { type: 'text', text: 'hi' } },
      },
    });
  });

  it('takes the JSON field whole when it is set, and says what is wrong with it', () => {
    expect(readReplayAnswers(form([['inputResponses', '{"a":{"action":"cancel"}}']]))).to.deep.equal({
      answers: { a: { action: 'cancel' } },
    });
    expect(readReplayAnswers(form([['inputResponses', '[1]']]))).to.have.property('problem');
    expect(readReplayAnswers(form([['inputResponses', '{']]))).to.deep.equal({
      problem: 'inputResponses is not valid JSON.',
    });
    expect(readReplayAnswers(form([['answer:not json', 'x']]))).to.deep.equal({
      problem: 'The form could not be read.',
    });
  });

  it('keeps a key such as __proto__ as data, never a prototype', () => {
    const read = readReplayAnswers(
      form([
        ['action:__proto__', 'accept'],
        ['answer:["__proto__","polluted","string"]', 'yes'],
      ]),
    ) as { answers: Record<string, unknown> };
    expect(Object.hasOwn(read.answers, '__proto__')).to.equal(true);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(Object.getPrototypeOf(read.answers)).to.equal(Object.prototype);
  });
});
