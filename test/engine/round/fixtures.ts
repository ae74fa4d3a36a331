/** Round specs and small machines for the kernel's tests. */
import { fromObservable, fromPromise, setup, type AnyStateMachine } from 'xstate';
import type { RequestRoundSpec, TaskStepSpec } from '../../../server/engine/round/index.js';

export function requestRound(machine: AnyStateMachine, extra: Partial<RequestRoundSpec> = {}): RequestRoundSpec {
  return {
    mode: 'request',
    name: 'probe',
    machine,
    input: {},
    clientCapabilities: { elicitation: {} },
    budgetMs: 2000,
    logFields: {},
    round: 0,
    maxRounds: 50,
    ...extra,
  };
}

export function taskStep(machine: AnyStateMachine, extra: Partial<TaskStepSpec> = {}): TaskStepSpec {
  return {
    mode: 'step',
    name: 'probe',
    machine,
    input: {},
    clientCapabilities: { elicitation: {} },
    budgetMs: 2000,
    logFields: {},
    taskId: 'task-1',
    timers: [],
    wallNow: Date.now(),
    inlineTimerMs: 50,
    ...extra,
  };
}

/**
 * fetching (a promise) -> counting (an observable that completes while it starts) -> counted.
 * The observable's done event reaches the machine after the snapshot that shows `counting` with
 * nothing running: judged on that snapshot alone the machine looks stuck.
 */
export const fetchThenCount = setup({
  actors: {
    fetch: fromPromise(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return 3;
    }),
    count: fromObservable(
      () =>
        ({
          subscribe: (observer: { next: (n: number) => void; complete: () => void }) => {
            observer.next(1);
            observer.complete();
            return { unsubscribe: () => {} };
          },
        }) as never,
    ),
  },
}).createMachine({
  id: 'fetchThenCount',
  initial: 'fetching',
  output: ({ event }) => event.output,
  states: {
    fetching: { invoke: { src: 'fetch', onDone: 'counting' } },
    counting: { invoke: { src: 'count', onDone: 'counted' } },
    counted: { type: 'final', output: 'counted' },
  },
});
