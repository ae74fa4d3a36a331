/**
 * A flow's example as the docs show it: a real run in process (server/simulation) with the
 * tool's example arguments and answers, as it went over the wire, for the sequence diagram, the
 * wire example and the decline/cancel table.
 *
 * The run itself is deterministic (a fixed clock, counter-based randomness, a throwaway key); what
 * still changes from run to run is left out so the committed pages do not churn: sealed states are
 * shortened, random UUIDs that reach the text (a connection id in a URL) are replaced in order of
 * appearance, and of a task's polls only those that show a change are kept, without the progress
 * message of a task still running (how many polls there are, and which one a progress message
 * lands on, depends on timing).
 */
import { isTerminalStatus } from '../engine/index.js';
import { simulate, type Round, type RoundsRun, type SimulateOptions } from '../simulation/index.js';
import type { DocumentedFlow } from './documented-flow.js';

/** One round as shown in the docs: sealed states are shortened (see `shortenState`). */
export type ConversationRound = Round;

export interface Conversation {
  rounds: ConversationRound[];
  outcome: RoundsRun['outcome'];
}

export type ConversationOptions = SimulateOptions;

export async function runConversation(flow: DocumentedFlow, options: ConversationOptions = {}): Promise<Conversation> {
  const run = await simulate(flow, options);
  return { rounds: forDisplay(taskChanges(run.rounds)), outcome: run.outcome };
}

/** What a poll shows that matters: the status and the questions. */
function pollSignature(result: Record<string, unknown>): string {
  return `${String(result.status)} ${Object.keys((result.inputRequests as object | undefined) ?? {}).join(',')}`;
}

/** A task's polls that show a change of status or questions; a running task's progress message left out. */
function taskChanges(rounds: Round[]): Round[] {
  let last = '';
  const kept: Round[] = [];
  for (const round of rounds) {
    if (round.request.method !== 'tasks/get' || !('result' in round.response)) {
      kept.push(round);
      continue;
    }
    const shown = pollSignature(round.response.result);
    if (shown === last) continue;
    last = shown;
    const result = { ...round.response.result };
    if (!isTerminalStatus(result.status)) delete result.statusMessage;
    kept.push({ ...round, response: { ...round.response, result } });
  }
  return kept;
}

/** The rounds as shown: sealed states shortened (they differ with every byte of context), random ids replaced. */
function forDisplay(rounds: ConversationRound[]): ConversationRound[] {
  return scrubRandomIds(rounds).map((round) => {
    const request = { ...round.request, params: { ...round.request.params } };
    if (request.params.requestState !== undefined)
      request.params.requestState = shortenState(request.params.requestState);
    const response = structuredClone(round.response);
    if ('result' in response && response.result.requestState !== undefined) {
      response.result.requestState = shortenState(response.result.requestState);
    }
    return { ...round, request, response };
  });
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** A URL elicitation's page reference (engine/page-reference.ts); it seals random ids, so it is shortened too. */
const PAGE_REF = /\bp1\.[A-Za-z0-9_-]{1,32}\.[A-Za-z0-9_-]{32,}/g;

/**
 * Replaces every random UUID with a fixed one, the same UUID always by the same stand-in, and
 * shortens page references like sealed states (their start is the counter-made nonce).
 */
export function scrubRandomIds<T>(value: T): T {
  const seen = new Map<string, string>();
  const text = JSON.stringify(value)
    .replace(UUID, (uuid) => {
      const key = uuid.toLowerCase();
      if (!seen.has(key)) seen.set(key, `00000000-0000-4000-8000-${String(seen.size + 1).padStart(12, '0')}`);
      return seen.get(key)!;
    })
    .replace(PAGE_REF, (ref) => String(shortenState(ref)));
  return JSON.parse(text) as T;
}

/** `b1.docs.AAECAwQFBgcI…`: enough of a sealed state to recognise it, not to be mistaken for one to copy. */
export function shortenState(state: unknown): unknown {
  return typeof state === 'string' && state.length > 24 ? `${state.slice(0, 24)}…` : state;
}
