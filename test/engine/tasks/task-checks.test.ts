import { expect } from 'chai';
import { createMachine, fromPromise, setup } from 'xstate';
import { ConfigurationError, defineTool, ToolRegistry } from '../../../server/engine/index.js';

const base = { description: 'A task tool.', inputSchema: { type: 'object' } };

describe('task start-up checks', () => {
  it('refuses a task option other than optional or required', () => {
    const machine = createMachine({ id: 'm', initial: 'done', states: { done: { type: 'final' } } });
    const tool = defineTool({ ...base, name: 'bad-task', machine, task: 'sometimes' as never });
    expect(() => new ToolRegistry([tool])).to.throw(ConfigurationError, /bad-task.*"optional" or "required"/);
  });

  it('refuses inline invoked logic in a task tool, naming the state and the fix', () => {
    const machine = createMachine({
      id: 'm',
      initial: 'work',
      states: { work: { invoke: { src: fromPromise(async () => 1), onDone: 'done' } }, done: { type: 'final' } },
    });
    const tool = defineTool({ ...base, name: 'inline-work', machine, task: 'optional' });
    expect(() => new ToolRegistry([tool])).to.throw(ConfigurationError, /state "m\.work".*invoke actors by name/);
  });

  it('accepts named invoked logic in a task tool, and inline logic in a tool that never runs as a task', () => {
    const named = setup({ actors: { work: fromPromise(async () => 1) } }).createMachine({
      id: 'm',
      initial: 'work',
      states: { work: { invoke: { src: 'work', onDone: 'done' } }, done: { type: 'final' } },
    });
    const inline = createMachine({
      id: 'n',
      initial: 'work',
      states: { work: { invoke: { src: fromPromise(async () => 1), onDone: 'done' } }, done: { type: 'final' } },
    });
    expect(
      () =>
        new ToolRegistry([
          defineTool({ ...base, name: 'named', machine: named, task: 'required' }),
          defineTool({ ...base, name: 'inline', machine: inline }),
        ]),
    ).to.not.throw();
  });
});
