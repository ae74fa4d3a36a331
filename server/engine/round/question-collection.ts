/**
 * The questions a settled machine waits on, as the client will see them: each pending input
 * state becomes its input request, a form schema computed from context is checked as it is asked
 * (form-schema-check.ts), and every question must be of a kind the client declared (spec: basic,
 * "Client capabilities"), checked before anything is persisted or sent.
 */
import type { AnyMachineSnapshot } from 'xstate';
import type { ClientCapabilities, InputRequest } from '../mcp-shapes.js';
import { askedQuestionProblem } from './form-schema-check.js';
import {
  clientSupports,
  mergeCapabilities,
  pendingQuestions,
  requiredCapability,
  toInputRequest,
  type PageRefMinter,
} from './pending-questions.js';

export interface CollectedQuestions {
  /** By question key, in document order (stable keys, stable order). */
  inputRequests: Record<string, InputRequest>;
  keys: string[];
}

export type Collection =
  | CollectedQuestions
  /** A computed schema is not a form schema (or asks for a secret): the tool's bug, named. */
  | { problem: string; stateId: string }
  /** Questions of kinds the client did not declare: what it would need, merged. */
  | { missing: ClientCapabilities };

/**
 * `name` labels problems with the tool; `retryReasons` prefix questions asked again; `mint`
 * makes the page reference a URL question may put in its URL.
 */
export function collectQuestions(
  snapshot: AnyMachineSnapshot,
  clientCapabilities: ClientCapabilities,
  retryReasons: Record<string, string>,
  name: string,
  mint?: PageRefMinter,
): Collection {
  const inputRequests: Record<string, InputRequest> = {};
  const keys: string[] = [];
  let missing: ClientCapabilities | undefined;
  for (const { question, stateId } of pendingQuestions(snapshot)) {
    const request = toInputRequest(question, snapshot.context, retryReasons[question.key], mint);
    // A static schema was checked at start-up; one computed from context is checked as it is asked.
    const problem = askedQuestionProblem(question, request, () => `${name}, state "${stateId}"`);
    if (problem) return { problem, stateId };
    if (!clientSupports(question, request, clientCapabilities)) {
      missing = mergeCapabilities(missing ?? {}, requiredCapability(question, request));
    }
    inputRequests[question.key] = request;
    keys.push(question.key);
  }
  return missing ? { missing } : { inputRequests, keys };
}
