/**
 * A one-state machine that finishes at once with an output computed from its input. Trivial tools,
 * prompts and resources use it, so every primitive keeps the same model: a machine, drawn and run
 * the same way, which can grow into a multi-step flow without changing how it is served.
 */
import { createMachine, type AnyStateMachine } from 'xstate';

/**
 * A machine for a tool, prompt or resource with no flow: it ends at once with `output(input)`,
 * so it is served, drawn and tested like any other and can grow into a flow later.
 */
export function respondWith<TInput = Record<string, unknown>>(
  id: string,
  output: (input: TInput) => unknown,
): AnyStateMachine {
  return createMachine({
    id,
    initial: 'respond',
    context: ({ input }: { input: TInput }) => ({ input }),
    states: { respond: { type: 'final' } },
    output: ({ context }: { context: { input: TInput } }) => output(context.input),
  }) as AnyStateMachine;
}
