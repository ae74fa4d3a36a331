/**
 * Replaying a paused flow from its `requestState` (time travel, docs/console.md "Replay"): an
 * operator or an author in `baton dev` opens a sealed state, sees where the machine waits and what
 * its context holds, and continues it with answers of their choosing, as often as they like.
 *
 * A replay is a fork, never the flow itself:
 * - the presented state is re-sealed, before each step, into a *fork* state under keys derived
 *   from the key ring for this use alone, so a fork token opens nowhere but here (a client
 *   presenting one to the MCP endpoint gets the opaque invalid-state error), and the original
 *   token is never altered, claimed or consumed;
 * - the fork is bound to the operator and marked reusable, so no single-use guard is ever claimed
 *   by a replay and the same point can be tried again with other answers;
 * - the flow's effects run on its stand-ins (`exampleActors`), as the docs' examples do: a tool
 *   with an effect that has none cannot be replayed (a replay must not deploy).
 */
import { createHmac } from 'node:crypto';
import type { AnyStateMachine } from 'xstate';
import type { FlowDefinition } from '../authoring/flow-definition.js';
import type { ToolDefinition } from '../authoring/tool-definition.js';
import { docsEffectProblems } from '../catalogue/effect-checks.js';
import type { ClientCapabilities } from '../mcp-shapes.js';
import { silentLogger, type Logger } from '../logger.js';
import { canonicalJson, principalDigest, shortDigest } from '../state/canonical-digest.js';
import { KeyRing } from '../state/key-ring.js';
import { openState, sealBounded, type SealedContent } from '../state/sealed-state.js';
import { pooledRandomBytes } from '../state/random-pool.js';
import { activeStates } from '../active-states.js';
import { DEFAULT_MAX_STATE_LENGTH, DEFAULT_STATE_TTL_SECONDS, FlowEngine } from './flow-engine.js';
import type { FlowOutcome } from './flow-round.js';

/** What a replayed client can answer: every kind of question Baton asks. */
const REPLAY_CAPABILITIES: ClientCapabilities = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };
/** A fork is bound to these arguments: the original's are only a digest in its claims. */
const FORK_ARGUMENTS = {};

export interface FlowReplayOptions {
  keyRing: KeyRing;
  clock?: () => number;
  logger?: Logger;
  /** Largest state opened or issued (16 KiB, as the flow engine). */
  maxStateLength?: number;
}

/** A presented state, opened: what it was sealed for and where its machine waits. */
export interface OpenedForReplay {
  /** The tool it belongs to (its claims' target, `tools/call <name>`). */
  tool: string;
  /** Whether it is a fork a replay made (else a client's original state). */
  fork: boolean;
  /** The structural version of the machine that sealed it. */
  version: string;
  round: number;
  /** Epoch ms; an expired original can still be replayed (it is debugging, not a call). */
  expiresAt: number;
  /** The machine's active states (leaf paths) and its context. */
  states: string[];
  context: unknown;
}

export type ReplayStep =
  { kind: 'refused'; message: string } | { kind: 'stepped'; from: OpenedForReplay; outcome: FlowOutcome };

export class FlowReplay {
  readonly #keyRing: KeyRing;
  readonly #forkRing: KeyRing;
  readonly #clock: () => number;
  readonly #logger: Logger;
  readonly #maxStateLength: number;
  readonly #randomBytes = pooledRandomBytes();
  readonly #engine: FlowEngine;
  readonly #flows = new WeakMap<ToolDefinition, FlowDefinition>();

  constructor(options: FlowReplayOptions) {
    this.#keyRing = options.keyRing;
    this.#forkRing = forkKeyRing(options.keyRing);
    this.#clock = options.clock ?? Date.now;
    this.#logger = options.logger ?? silentLogger;
    this.#maxStateLength = options.maxStateLength ?? DEFAULT_MAX_STATE_LENGTH;
    // Its own engine on the fork keys: nothing it seals opens on the MCP endpoint, and its guard
    // never sees a single-use state (every fork is re-sealed reusable before it runs).
    this.#engine = new FlowEngine({ keyRing: this.#forkRing, clock: this.#clock, logger: this.#logger });
  }

  /** Opens a client's state or a fork; undefined when it is neither (tampered, foreign keys, garbage). */
  open(token: unknown): OpenedForReplay | undefined {
    const opened = this.#opened(token);
    return opened && describe(opened.content, opened.fork);
  }

  /**
   * One step of the replay: `token` (an original or a fork) continued with `inputResponses` (none:
   * it asks again what it waits for) by `operator`, on `tool`'s machine with its stand-ins. The
   * outcome's `requestState`, when it asks, is a fork to step from next.
   */
  async step(step: {
    tool: ToolDefinition;
    token: unknown;
    inputResponses?: Record<string, unknown> | undefined;
    operator: string;
    signal?: AbortSignal | undefined;
  }): Promise<ReplayStep> {
    const { tool } = step;
    const opened = this.#opened(step.token);
    if (!opened) return { kind: 'refused', message: 'That requestState does not open with this server’s keys.' };
    const from = describe(opened.content, opened.fork);
    if (from.tool !== tool.name) {
      return { kind: 'refused', message: `That requestState belongs to ${from.tool}, not ${tool.name}.` };
    }
    const problems = docsEffectProblems(tool);
    if (problems.length > 0) {
      return { kind: 'refused', message: `${tool.name} cannot be replayed safely: ${problems.join(' ')}` };
    }
    const fork = this.#fork(opened.content, step.operator);
    if (fork === undefined) return { kind: 'refused', message: 'That state is too large to replay.' };
    const outcome = await this.#engine.run({
      flow: this.#flowOf(tool),
      arguments: FORK_ARGUMENTS,
      principal: step.operator,
      clientCapabilities: REPLAY_CAPABILITIES,
      requestState: fork,
      ...(step.inputResponses ? { inputResponses: step.inputResponses } : {}),
      ...(step.signal ? { signal: step.signal } : {}),
    });
    return { kind: 'stepped', from, outcome };
  }

  #opened(token: unknown): { content: SealedContent; fork: boolean } | undefined {
    if (typeof token !== 'string') return undefined;
    const fork = openState(token, this.#forkRing, this.#maxStateLength);
    if (fork) return { content: fork, fork: true };
    const original = openState(token, this.#keyRing, this.#maxStateLength);
    return original ? { content: original, fork: false } : undefined;
  }

  /** The state as a reusable fork of `operator`'s, sealed with the fork keys for one more step. */
  #fork(content: SealedContent, operator: string): string | undefined {
    const issuedAt = Math.floor(this.#clock() / 1000);
    const { trace: _trace, ...claims } = content.claims;
    const sealed = sealBounded(
      {
        claims: {
          ...claims,
          principal: principalDigest(operator),
          args: shortDigest(canonicalJson(FORK_ARGUMENTS)),
          issuedAt,
          expiresAt: issuedAt + DEFAULT_STATE_TTL_SECONDS,
          id: Buffer.from(this.#randomBytes(12)).toString('base64url'),
          singleUse: false,
        },
        snapshot: content.snapshot,
      },
      { keyRing: this.#forkRing, randomBytes: this.#randomBytes, maxLength: this.#maxStateLength },
    );
    return 'token' in sealed ? sealed.token : undefined;
  }

  /** The tool with its stand-ins for effects, on its current and kept machines alike; made once per tool. */
  #flowOf(tool: ToolDefinition): FlowDefinition {
    let flow = this.#flows.get(tool);
    if (!flow) {
      const actors = tool.exampleActors ?? {};
      const standIns = (machine: AnyStateMachine) =>
        Object.keys(actors).length === 0 ? machine : machine.provide({ actors });
      flow = {
        ...tool,
        machine: standIns(tool.machine),
        singleUse: false,
        ...(tool.versions
          ? {
              versions: tool.versions.map((version) =>
                version.machine ? { ...version, machine: standIns(version.machine) } : version,
              ),
            }
          : {}),
      };
      this.#flows.set(tool, flow);
    }
    return flow;
  }
}

function describe(content: SealedContent, fork: boolean): OpenedForReplay {
  const { claims } = content;
  const snapshot = content.snapshot as { value?: unknown; context?: unknown } | undefined;
  return {
    tool: claims.target.replace(/^tools\/call /, ''),
    fork,
    version: claims.version,
    round: claims.round,
    expiresAt: claims.expiresAt * 1000,
    states: activeStates(snapshot?.value),
    context: snapshot?.context,
  };
}

/** Keys for forks alone: each key of the ring, through an HMAC naming this use. */
export function forkKeyRing(keyRing: KeyRing): KeyRing {
  const ids = [keyRing.current.id, ...keyRing.ids.filter((id) => id !== keyRing.current.id)];
  return new KeyRing(
    ids.map((id) => ({
      id,
      secret: new Uint8Array(createHmac('sha256', keyRing.find(id)!.secret).update('baton replay fork v1').digest()),
    })),
  );
}
