/**
 * Turns a settled snapshot into the questions it is waiting on, and those into the wire's
 * `inputRequests` entries (MRTR). Also says which client capability each question needs, so the
 * caller can refuse with -32021 before anything is sent (spec: basic, "Client capabilities").
 */
import type { AnyMachineSnapshot } from 'xstate';
import { INPUT_META, type FormQuestion, type Question, type UrlQuestion } from '../authoring/input-states.js';
import type { ClientCapabilities, InputRequest } from '../mcp-shapes.js';
import { isRecord } from '../plain-objects.js';

export interface PendingQuestion {
  /** The state node that asked, for logs and diagrams. */
  stateId: string;
  question: Question;
}

/** Every active state node that carries a question, in document order (stable keys, stable order). */
export function pendingQuestions(snapshot: AnyMachineSnapshot): PendingQuestion[] {
  const meta = snapshot.getMeta() as Record<string, Record<string, unknown> | undefined>;
  const pending: PendingQuestion[] = [];
  for (const [stateId, stateMeta] of Object.entries(meta)) {
    const question = stateMeta?.[INPUT_META] as Question | undefined;
    if (question) pending.push({ stateId, question });
  }
  return pending;
}

function resolve<T>(value: T | ((args: { context: unknown }) => T), context: unknown): T {
  return typeof value === 'function' ? (value as (args: { context: unknown }) => T)({ context }) : value;
}

/** The schema a form question asks with, as the client sees it (computed from context when it is a function). */
export function requestedSchemaOf(question: FormQuestion, context: unknown): object {
  return resolve(question.schema, context);
}

/** Mints the page reference of a URL question (page-reference.ts), given its subject. */
export interface PageRefMinter {
  mintPageRef(question: UrlQuestion, subject: string): string;
}

function urlOf(question: UrlQuestion, context: unknown, mint: PageRefMinter | undefined): string {
  if (typeof question.url !== 'function') return question.url;
  let minted: string | undefined;
  const url = question.url;
  // Minted only when the URL uses it: most URL questions link to a fixed page.
  return url({
    context,
    get pageRef() {
      return (minted ??=
        mint?.mintPageRef(question, question.subject === undefined ? '' : resolve(question.subject, context)) ?? '');
    },
  });
}

/**
 * The exact wire request for one question; `retryReason` prefixes the message of a re-ask, and
 * `mint` makes the page reference a URL question may put in its URL (without it, an empty one).
 */
export function toInputRequest(
  question: Question,
  context: unknown,
  retryReason?: string,
  mint?: PageRefMinter,
): InputRequest {
  const withReason = (message: string) => (retryReason ? `${retryReason} ${message}` : message);
  switch (question.kind) {
    case 'form':
      return {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: withReason(resolve(question.message, context)),
          requestedSchema: requestedSchemaOf(question, context),
        },
      };
    case 'url':
      return {
        method: 'elicitation/create',
        params: {
          mode: 'url',
          message: withReason(resolve(question.message, context)),
          url: urlOf(question, context, mint),
        },
      };
    case 'sampling':
      return { method: 'sampling/createMessage', params: resolve(question.request, context) };
    case 'roots':
      return { method: 'roots/list', params: {} };
  }
}

/** A sampling request that offers tools or says how to choose them needs `sampling.tools` (schema). */
function usesSamplingTools(request: InputRequest): boolean {
  const params = request.params ?? {};
  return 'tools' in params || 'toolChoice' in params;
}

/** The capability a question needs, as the `requiredCapabilities` object of a -32021 error. */
export function requiredCapability(question: Question, request: InputRequest): ClientCapabilities {
  switch (question.kind) {
    case 'form':
      return { elicitation: { form: {} } };
    case 'url':
      return { elicitation: { url: {} } };
    case 'sampling':
      return usesSamplingTools(request) ? { sampling: { tools: {} } } : { sampling: {} };
    case 'roots':
      return { roots: {} };
  }
}

/**
 * Whether the client declared what a question needs. `elicitation: {}` means form only
 * (spec, client/elicitation "Capabilities"); URL mode needs `elicitation.url`.
 */
export function clientSupports(question: Question, request: InputRequest, caps: ClientCapabilities): boolean {
  switch (question.kind) {
    case 'form': {
      const elicitation = caps.elicitation;
      if (!isRecord(elicitation)) return false;
      return Object.keys(elicitation).length === 0 || 'form' in elicitation;
    }
    case 'url':
      return isRecord(caps.elicitation) && isRecord(caps.elicitation.url);
    case 'sampling':
      if (!isRecord(caps.sampling)) return false;
      return usesSamplingTools(request) ? isRecord(caps.sampling.tools) : true;
    case 'roots':
      return isRecord(caps.roots);
  }
}

/** Two `requiredCapabilities` objects as one, nested capabilities merged (form and URL elicitation both kept). */
export function mergeCapabilities(a: ClientCapabilities, b: ClientCapabilities): ClientCapabilities {
  const merged: ClientCapabilities = { ...a };
  for (const [key, value] of Object.entries(b)) {
    merged[key] = isRecord(merged[key]) && isRecord(value) ? { ...merged[key], ...value } : value;
  }
  return merged;
}
