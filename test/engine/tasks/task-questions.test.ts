import { expect } from 'chai';
import { answersOf, wireQuestions } from '../../../server/engine/tasks/task-questions.js';
import type { InputRequest, TaskRecord } from '../../../server/engine/index.js';

const form = (message: string): InputRequest => ({
  method: 'elicitation/create',
  params: { mode: 'form', message, requestedSchema: { type: 'object', properties: {} } },
});

function recordWith(fields: Pick<TaskRecord, 'asked' | 'answers'>): TaskRecord {
  return { ...fields } as TaskRecord;
}

describe('task questions', () => {
  const asked = { name: { questionKey: 'name', request: form('Name?') } };

  it('feeds every collected answer under its question key, with the schema it was asked with', () => {
    const record = recordWith({
      asked: { ...asked, 'color.2': { questionKey: 'color', request: form('Color?') } },
      answers: { 'color.2': { action: 'decline' } },
    });
    expect(answersOf(record)).to.deep.equal({
      asked: ['color'],
      responses: { color: { action: 'decline' } },
      askedSchemas: { color: { type: 'object', properties: {} } },
    });
  });

  it('keeps the wire key of a question still waiting for its first answer', () => {
    const askCounts = { name: 1 };
    const questions = { inputRequests: { name: form('Name, again?') }, keys: ['name'], retryReasons: {} };
    expect(wireQuestions(recordWith({ asked, answers: {} }), questions, askCounts)).to.deep.equal(asked);
    expect(askCounts).to.deep.equal({ name: 1 });
  });

  it('gives a question asked again a fresh wire key: answered, or re-asked with a reason', () => {
    const again = { inputRequests: { name: form('Name?') }, keys: ['name'], retryReasons: {} };
    const answered = recordWith({ asked, answers: { name: { action: 'cancel' } } });
    expect(Object.keys(wireQuestions(answered, again, { name: 1 }))).to.deep.equal(['name.2']);
    const rejected = { ...again, retryReasons: { name: 'Your last answer was not accepted.' } };
    const counts = { name: 2 };
    expect(wireQuestions(recordWith({ asked, answers: {} }), rejected, counts)).to.deep.equal({
      'name.3': { questionKey: 'name', request: form('Name?') },
    });
    expect(counts).to.deep.equal({ name: 3 });
  });
});
