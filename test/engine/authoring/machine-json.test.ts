import { expect } from 'chai';
import { createActor, createMachine, fromPromise, setup, waitFor } from 'xstate';
import { ConfigurationError, withActorInputs } from '../../../server/engine/index.js';

const json = {
  id: 'j',
  initial: 'a',
  context: { n: 2 },
  states: {
    a: { invoke: { src: 'double', onDone: 'b' } },
    b: { initial: 'c', states: { c: { invoke: [{ src: 'double', onDone: 'd' }, { src: 'other' }] }, d: {} } },
  },
};

describe('withActorInputs', () => {
  it('adds the input of every invoke of the named actor, nested and in lists, leaving the JSON untouched', () => {
    const input = ({ context }: { context: { n: number } }) => context.n;
    const completed = withActorInputs(json, { double: input }) as any;
    expect(completed.states.a.invoke.input).to.equal(input);
    expect(completed.states.b.states.c.invoke[0].input).to.equal(input);
    expect(completed.states.b.states.c.invoke[1]).to.deep.equal({ src: 'other' });
    expect((json.states.a.invoke as Record<string, unknown>).input).to.equal(undefined);
  });

  it('gives the actor what the function returns', async () => {
    const received: unknown[] = [];
    const machine = setup({
      actors: {
        double: fromPromise(async ({ input }: { input: number }) => {
          received.push(input);
          return input * 2;
        }),
        other: fromPromise(async () => 0),
      },
    }).createMachine(withActorInputs(json, { double: ({ context }) => context.n }) as any);
    const actor = createActor(machine).start();
    await waitFor(actor, (s) => s.matches({ b: 'd' }));
    // Both invokes of `double` got the context's n (without withActorInputs: [undefined, undefined]).
    expect(received).to.deep.equal([2, 2]);
    expect(createMachine(json as any).id).to.equal('j');
  });

  it('refuses an actor name the config never invokes', () => {
    expect(() => withActorInputs(json, { dubble: () => 1 })).to.throw(ConfigurationError, /"dubble"/);
  });
});
