/**
 * Where a run ended: the machine rebuilt from its own config and implementations with one more
 * entry action on each top-level final state, which names the state as the run enters it. The
 * wire says only what the tool answered; the plan says in which final state it should answer.
 * A machine whose root is a parallel state ends in no single final state, and is not probed.
 */
import { createMachine, type AnyStateMachine } from 'xstate';

type StateConfig = { type?: string; entry?: unknown };

export function withFinalStateProbe(machine: AnyStateMachine, reached: (state: string) => void): AnyStateMachine {
  const config = machine.config as { states?: Record<string, StateConfig>; type?: string };
  if (config.type === 'parallel' || !config.states) return machine;
  const states = Object.fromEntries(
    Object.entries(config.states).map(([name, state]) => {
      if (state.type !== 'final') return [name, state];
      const own = state.entry === undefined ? [] : Array.isArray(state.entry) ? state.entry : [state.entry];
      return [name, { ...state, entry: [...own, () => reached(name)] }];
    }),
  );
  return createMachine({ ...config, states } as never, machine.implementations as never) as AnyStateMachine;
}
