/**
 * Plays a bench flow through a real FlowEngine, one request a round, answering each question from
 * its schema as the load generator does, and records every round as the engine played it: the
 * state it opened, the answers it took and the state it sealed. The micro-benchmarks time the
 * steps of these real rounds (round-steps.ts).
 */
import {
  FlowEngine,
  type FlowCall,
  type FlowOutcome,
  type KeyRing,
  type ToolDefinition,
} from '../../server/engine/index.js';
import type { BenchFlow } from '../flows/bench-flows.js';
import { contentForSchema } from '../load/answer-from-schema.js';
import { benchTools } from '../tools/index.js';
import type { PlayedRound } from './round-steps.js';

export interface WalkedRound extends PlayedRound {
  /** 1 for the flow's first request. */
  number: number;
  /** The keys the round asked (none on the last round). */
  asked: string[];
  /** The call the engine ran for this round, to run again. */
  call: FlowCall;
  /** The round's `inputResponses`, as the client sent them (none on the first round). */
  inputResponses?: Record<string, unknown>;
}

export function benchToolOf(flow: BenchFlow): ToolDefinition {
  const tool = benchTools.find((t) => t.name === flow.tool);
  if (!tool) throw new Error(`no bench tool is named ${flow.tool}`);
  return tool;
}

function askedKeys(outcome: FlowOutcome): string[] {
  return outcome.kind === 'input_required' ? Object.keys(outcome.inputRequests) : [];
}

export async function walkFlow(flow: BenchFlow, engine: FlowEngine, keyRing: KeyRing): Promise<WalkedRound[]> {
  const tool = benchToolOf(flow);
  const call: FlowCall = {
    flow: tool,
    arguments: flow.arguments,
    principal: 'anonymous',
    clientCapabilities: { elicitation: {} },
  };
  const rounds: WalkedRound[] = [];
  let token: string | undefined;
  // One request per asking round, then the one that answers the last questions and ends.
  for (let i = 0; i <= flow.rounds.length; i++) {
    const answers = (flow.rounds[i - 1] ?? []).map((q) => ({
      key: q.key,
      response: { action: 'accept', content: contentForSchema(q.schema) },
    }));
    const inputResponses = Object.fromEntries(answers.map((a) => [a.key, a.response]));
    const roundCall = token === undefined ? call : { ...call, requestState: token, inputResponses };
    const outcome = await engine.run(roundCall);
    const expected = (flow.rounds[i] ?? []).map((q) => q.key);
    const asked = askedKeys(outcome);
    const ends = i === flow.rounds.length;
    if ((ends ? outcome.kind !== 'complete' : outcome.kind !== 'input_required') || `${asked}` !== `${expected}`) {
      throw new Error(`${flow.label} round ${i + 1}: expected ${ends ? 'the result' : expected}, got ${outcome.kind}`);
    }
    const sealed = outcome.kind === 'input_required' ? outcome.requestState : undefined;
    rounds.push({
      machine: tool.machine,
      arguments: flow.arguments,
      principal: call.principal,
      keyRing,
      ...(token === undefined ? {} : { token }),
      answers,
      ...(sealed === undefined ? {} : { sealed }),
      number: i + 1,
      asked,
      call: roundCall,
      ...(token === undefined ? {} : { inputResponses }),
    });
    token = sealed;
  }
  return rounds;
}
