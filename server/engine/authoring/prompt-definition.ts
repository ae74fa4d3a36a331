/**
 * `definePrompt`: a prompt whose messages come from a machine. The machine's input is the
 * prompt's string arguments; it may ask questions (MRTR on prompts/get) like a tool.
 */
import type { AnyStateMachine } from 'xstate';
import type { FlowDefinition, FlowOptions } from './flow-definition.js';

/** Completion values for an argument: a fixed list, or computed from what was typed so far. */
export type Completions = string[] | ((value: string, context: Record<string, string>) => string[] | Promise<string[]>);

/** One argument of a prompt, as prompts/list shows it; its value reaches the machine's input as a string. */
export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
  completions?: Completions;
}

/** What `definePrompt` takes: the prompt as prompts/list shows it, and the machine that writes its messages. */
export interface PromptSpec<TMachine extends AnyStateMachine = AnyStateMachine> extends FlowOptions {
  name: string;
  title?: string;
  description: string;
  arguments?: PromptArgument[];
  machine: TMachine;
  exampleArguments?: Record<string, string>;
}

/** A prompt ready to serve (`createServer({ prompts })`), as `definePrompt` returns it. */
export interface PromptDefinition<TMachine extends AnyStateMachine = AnyStateMachine>
  extends PromptSpec<TMachine>, FlowDefinition {
  method: 'prompts/get';
  machine: TMachine;
}

/**
 * A prompt whose messages are its machine's output: a string (one user message), an array of
 * messages, or a whole `PromptResult`. The machine may ask questions before it answers.
 */
export function definePrompt(spec: PromptSpec): PromptDefinition {
  return Object.freeze({ ...spec, method: 'prompts/get' as const });
}
