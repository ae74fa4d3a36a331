import { expect } from 'chai';
import type { InputRequest } from '../../../server/engine/index.js';
import {
  clientSupports,
  mergeCapabilities,
  requiredCapability,
} from '../../../server/engine/round/pending-questions.js';

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

describe('sampling capability', () => {
  const question = { kind: 'sampling' } as Parameters<typeof clientSupports>[0];
  const request = (params: Record<string, unknown>) => ({ method: 'sampling/createMessage', params }) as InputRequest;

  it('needs sampling.tools when the request offers tools or a toolChoice', () => {
    for (const params of [{ tools: [] }, { toolChoice: { mode: 'auto' } }]) {
      expect(clientSupports(question, request(params), { sampling: {} }), JSON.stringify(params)).to.equal(false);
      expect(clientSupports(question, request(params), { sampling: { tools: {} } })).to.equal(true);
      expect(requiredCapability(question, request(params))).to.deep.equal({ sampling: { tools: {} } });
    }
    expect(clientSupports(question, request({ messages: [] }), { sampling: {} })).to.equal(true);
  });
});
