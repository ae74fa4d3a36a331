import { expect } from 'chai';
import { mergeCapabilities } from '../../../server/engine/flow/pending-questions.js';

describe('mergeCapabilities', () => {
  it('keeps every nested capability two questions need (form and URL elicitation both)', () => {
    const form = { elicitation: { form: {} } };
    const url = { elicitation: { url: {} } };
    expect(mergeCapabilities(mergeCapabilities({}, form), url)).to.deep.equal({ elicitation: { form: {}, url: {} } });
    expect(mergeCapabilities(form, { sampling: { tools: {} } })).to.deep.equal({
      elicitation: { form: {} },
      sampling: { tools: {} },
    });
  });
});
