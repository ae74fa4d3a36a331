/**
 * Small random statecharts for the planner's property test: questions whose answers land in
 * context, parallel regions that ask at once, guards on context (in `onDone`, in `always` choices,
 * on a question's accept) and on the answer itself (a refused answer asks again), and final
 * states, some of them tool errors. Each machine is correct by construction: states only lead to
 * later states or finals and every choice has an unguarded last branch, so every path ends in a
 * final state. Built from plain data, so fast-check shrinks a failure to a small machine.
 */
import fc from 'fast-check';
import { assign, setup, type AnyStateMachine } from 'xstate';
import { askForm, defineTool, type AnswerEvent, type ToolDefinition } from '../../server/engine/index.js';

const VALUES = ['a', 'b'] as const;
/** What a guard compares a field with: an answer, the mark of a refusal, or nothing yet. */
const COMPARED = ['a', 'b', 'none', null] as const;

interface Branch {
  /** Guarded on `context[f<field>] === equals`; the last branch of a list is never guarded. */
  field: number;
  equals: (typeof COMPARED)[number];
  /** Picks the target among the later states and the finals. */
  to: number;
}

interface Ask {
  field: number;
  /** Accepting this value is refused by a guard on the answer: the question is asked again. */
  refuse: (typeof VALUES)[number] | null;
  onAccept: Branch[];
  /** A decline marks the field `none` (or leaves it) and goes to this target. */
  markDecline: boolean;
  onDecline: number;
}

type StateSpec =
  | { kind: 'ask'; ask: Ask }
  | {
      kind: 'parallel';
      regions: Array<{ field: number; markDecline: boolean; declineLeaves: number | null }>;
      onDone: Branch[];
    }
  | { kind: 'choice'; branches: Branch[] };

export interface MachineSpec {
  fields: number;
  states: StateSpec[];
  /** Each final answers a result, or a tool error (`isError: true`). */
  finals: boolean[];
}

// Two fields only: a guard then often reads what a region stored.
const field = fc.nat({ max: 1 });
const target = fc.nat({ max: 99 });
// Mostly the answers themselves: a guard that tells them apart is what a merged plan gets wrong.
const branch = fc.record({ field, equals: fc.constantFrom('a', 'b', ...COMPARED), to: target });
const branches = fc.array(branch, { minLength: 1, maxLength: 3 });

const askSpec = fc.record({
  kind: fc.constant('ask' as const),
  ask: fc.record({
    field,
    refuse: fc.constantFrom(null, null, 'a' as const, 'b' as const),
    onAccept: branches,
    markDecline: fc.boolean(),
    onDecline: target,
  }),
});

const parallelSpec = fc.record({
  kind: fc.constant('parallel' as const),
  regions: fc.array(fc.record({ field, markDecline: fc.boolean(), declineLeaves: fc.option(target, { freq: 3 }) }), {
    minLength: 2,
    maxLength: 3,
  }),
  onDone: branches,
});

// Parallel states weigh most: regions answered in one round are where states differ only in context.
const stateSpec: fc.Arbitrary<StateSpec> = fc.oneof(
  { arbitrary: askSpec, weight: 2 },
  { arbitrary: parallelSpec, weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('choice' as const), branches }), weight: 1 },
);

export const machineSpec: fc.Arbitrary<MachineSpec> = fc.record({
  fields: fc.constant(2),
  states: fc.array(stateSpec, { minLength: 1, maxLength: 3 }),
  finals: fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }),
});

/** Every question asks one field, `v`, with two values. */
const ONE_VALUE = {
  type: 'object' as const,
  properties: { v: { type: 'string', enum: [...VALUES] } },
  required: ['v'],
};

/** The machine a spec describes, and the answer variants that walk both values of every question. */
export function buildTool(spec: MachineSpec): { tool: ToolDefinition; answers: Record<string, unknown[]> } {
  const names = spec.states.map((_, index) => `s${index}`);
  const finals = spec.finals.map((_, index) => `end${index}`);
  // Only later states and finals: the graph is acyclic but for the asked-again questions.
  const targetOf = (from: number, pick: number) => {
    const later = [...names.slice(from + 1), ...finals];
    return `#gen.${later[pick % later.length]}`;
  };
  const guarded = (from: number, list: Branch[]) =>
    list.map((b, index) =>
      index === list.length - 1
        ? { target: targetOf(from, b.to) }
        : {
            guard: ({ context }: { context: Record<string, unknown> }) => context[`f${b.field}`] === b.equals,
            target: targetOf(from, b.to),
          },
    );
  const answers: Record<string, unknown[]> = {};
  const ask = (key: string, onAccept: unknown, onDecline: unknown) => {
    answers[key] = [...VALUES];
    return askForm({
      key,
      message: `${key}?`,
      schema: ONE_VALUE,
      onAccept: onAccept as never,
      onDecline: onDecline as never,
    });
  };
  const store = (f: number) =>
    assign({ [`f${f}`]: ({ event }: { event: { content: Record<string, string> } }) => event.content.v });
  const mark = (f: number, marked: boolean) => (marked ? [assign({ [`f${f}`]: 'none' })] : []);

  const states: Record<string, unknown> = {};
  spec.states.forEach((state, index) => {
    const name = names[index]!;
    if (state.kind === 'ask') {
      const { ask: a } = state;
      const refused = a.refuse
        ? [
            {
              guard: ({ event }: { event: { content: { v: string } } }) => event.content.v === a.refuse,
              target: `#gen.${name}`,
              reenter: true,
            },
          ]
        : [];
      const accepted = guarded(index, a.onAccept).map((t) => ({ ...t, actions: store(a.field) }));
      states[name] = ask(`q${index}`, [...refused, ...accepted], {
        target: targetOf(index, a.onDecline),
        actions: mark(a.field, a.markDecline),
      });
    } else if (state.kind === 'parallel') {
      const regions = Object.fromEntries(
        state.regions.map((region, r) => [
          `r${r}`,
          {
            initial: 'asking',
            states: {
              asking: ask(
                `q${index}r${r}`,
                { target: 'answered', actions: store(region.field) },
                {
                  // A decline may leave the whole parallel state, past the other regions' questions.
                  target: region.declineLeaves === null ? 'answered' : targetOf(index, region.declineLeaves),
                  actions: mark(region.field, region.markDecline),
                },
              ),
              answered: { type: 'final' },
            },
          },
        ]),
      );
      states[name] = { type: 'parallel', states: regions, onDone: guarded(index, state.onDone) };
    } else {
      states[name] = { always: guarded(index, state.branches) };
    }
  });
  spec.finals.forEach((isError, index) => {
    states[`end${index}`] = {
      type: 'final',
      output: isError ? { content: [{ type: 'text', text: `end${index}` }], isError: true } : `end${index}`,
    };
  });
  const context = Object.fromEntries(Array.from({ length: spec.fields }, (_, f) => [`f${f}`, null]));
  const machine = setup({
    types: {} as { context: Record<string, unknown>; events: AnswerEvent },
  }).createMachine({
    id: 'gen',
    initial: 's0',
    context,
    states,
    output: ({ event }: { event: { output?: unknown } }) => event.output,
  } as never) as unknown as AnyStateMachine;
  const tool = defineTool({
    name: 'generated',
    description: 'A generated statechart.',
    inputSchema: { type: 'object', additionalProperties: false },
    machine,
  });
  return { tool, answers };
}
