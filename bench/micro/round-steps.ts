/**
 * The unavoidable steps of one real flow round, each as a step the micro-benchmarks time on its
 * own. A round is given as the engine played it (the state it opened, the answers it took, the
 * state it sealed); the steps repeat the calls of `server/engine/state/sealed-state.ts` and
 * `flow/flow-engine.ts` with the same libraries and the engine's own helpers. Which steps a round
 * performs depends on where it sits in its flow (`RoundSteps#steps`): a first round builds the initial
 * state instead of opening one, a last round ends in a final state and seals nothing.
 */
import { randomBytes } from 'node:crypto';
import nacl from 'tweetnacl';
import { createActor, type AnyActor, type AnyEventObject, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import { interpretAnswer } from '../../server/engine/round/answers.js';
import { pendingQuestions, requestedSchemaOf, toInputRequest } from '../../server/engine/round/pending-questions.js';
import { canonicalJson, shortDigest } from '../../server/engine/state/canonical-digest.js';
import { JsonSchemaValidator } from '../../server/engine/json-schema-validator.js';
import type { KeyRing } from '../../server/engine/index.js';
import type { StepSpec } from './measure.js';
import { encode, openByHand, persistOf, type OpenedByHand } from './state-by-hand.js';

export type RoundKind = 'first' | 'middle' | 'last';

export interface RoundAnswer {
  key: string;
  /** The `inputResponses` entry, as the client sent it. */
  response: unknown;
}

/** One round as the engine played it (flow-round-walk.ts records them). */
export interface PlayedRound {
  machine: AnyStateMachine;
  arguments: Record<string, unknown>;
  principal: string;
  keyRing: KeyRing;
  /** The state the round opened; none on a first round. */
  token?: string;
  /** The answers the round delivered, in the order the engine sends them. */
  answers: RoundAnswer[];
  /** The state the round sealed; none on a last round (it ended in a final state). */
  sealed?: string;
}

export function roundKind(round: Pick<PlayedRound, 'token' | 'sealed'>): RoundKind {
  return round.token === undefined ? 'first' : round.sealed === undefined ? 'last' : 'middle';
}

const none = () => undefined;
const many = <T>(count: number, make: () => T) => Array.from({ length: count }, make);
const ignore = () => {};

/** Starts an actor as the engine does: observed first, since XState rethrows an unobserved error. */
function started(actor: AnyActor): AnyActor {
  actor.subscribe({ error: ignore });
  actor.start();
  return actor;
}

/**
 * The inputs of every step of one round, computed once (untimed), and the steps themselves. The
 * constructor replays the round by hand and checks that it reaches the state the engine sealed (or
 * the final state), so the steps time the round they claim to.
 */
export class RoundSteps {
  readonly kind: RoundKind;
  readonly #round: PlayedRound;
  readonly #opened: OpenedByHand | undefined;
  readonly #events: AnyEventObject[];
  /** The snapshot the answers are mapped on, and the one after every answer was sent. */
  readonly #waiting: AnyMachineSnapshot;
  readonly #answered: AnyMachineSnapshot;
  readonly #next: { claims: unknown; persisted: Record<string, unknown>; plain: Uint8Array } | undefined;
  readonly #validator = new JsonSchemaValidator();

  constructor(round: PlayedRound) {
    this.#round = round;
    this.kind = roundKind(round);
    this.#opened = round.token === undefined ? undefined : openByHand(round.token, round.keyRing);
    const waiting = this.#started();
    this.#waiting = waiting.getSnapshot() as AnyMachineSnapshot;
    this.#events = round.answers.map((answer) => {
      const outcome = this.#mapAnswer(answer);
      if (!('event' in outcome)) throw new Error(`the answer to "${answer.key}" was not accepted`);
      return outcome.event;
    });
    const answered = this.#sent(this.#events.length);
    this.#answered = answered.getSnapshot() as AnyMachineSnapshot;
    const persisted = persistOf(answered);
    waiting.stop();
    answered.stop();
    if (round.sealed === undefined) {
      this.#next = undefined;
      if (this.#answered.status !== 'done') throw new Error(`a last round ends ${this.#answered.status}, not done`);
      return;
    }
    const next = openByHand(round.sealed, round.keyRing);
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    const sealedSnapshot = next.snapshot as Record<string, unknown>;
    if (!same(persisted.value, sealedSnapshot.value) || !same(persisted.context, sealedSnapshot.context)) {
      throw new Error(`the round replayed by hand is at ${JSON.stringify(persisted.value)}, the engine sealed another`);
    }
    const body = Buffer.from(encode(persisted, [next.claims, persisted]));
    const plain = new Uint8Array(body.length + 1);
    plain[0] = 0;
    plain.set(body, 1);
    this.#next = { claims: next.claims, persisted, plain };
  }

  /**
   * The steps this round performs: the state's way in, the answers, the state's way out, then the
   * per-request work (the engine digests the binding first and maps the answers before sending).
   */
  steps(): StepSpec<any>[] {
    const answers = this.#round.answers.map((_, i) => i);
    const resumed = () => [
      this.open(),
      this.parse(),
      this.restore(),
      this.start(),
      ...answers.map((i) => this.send(i)),
    ];
    const sealing = () => [this.persist(), this.stringify(), this.seal()];
    const mapping = () => answers.map((i) => this.answerMapping(i));
    switch (this.kind) {
      case 'first':
        return [this.initial(), ...sealing(), this.binding(), this.ask()];
      case 'middle':
        return [...resumed(), ...sealing(), this.binding(), ...mapping(), this.ask()];
      case 'last':
        return [...resumed(), this.binding(), ...mapping()];
    }
  }

  /** The state this round seals: the claims tuple, the persisted snapshot, the plain bytes (flag, text). */
  get next(): { claims: unknown; persisted: Record<string, unknown>; plain: Uint8Array } {
    return this.#sealing();
  }

  /** The snapshot after the round's answers: the one it asks from, or its final state. */
  get answered(): AnyMachineSnapshot {
    return this.#answered;
  }

  /** The text of the state this round opens. */
  get openedText(): string {
    return this.#resumed().text;
  }

  /** A fresh actor as the round has it before its answers: restored (or built) and started. */
  startedActor(): AnyActor {
    return this.#started();
  }

  initial(): StepSpec<undefined> {
    const { machine, arguments: input } = this.#round;
    return {
      step: 'initial',
      what: 'createActor(machine, { input }) + subscribe + start: the initial snapshot',
      prepare: none,
      run: () => started(createActor(machine, { input })),
    };
  }

  open(): StepSpec<undefined> {
    const { token, keyRing } = this.#round;
    return {
      step: 'open',
      what: 'split token, base64url decode + canonical check, secretbox.open',
      prepare: none,
      run: () => {
        const [, k, s] = token!.split('.') as [string, string, string];
        const b = Buffer.from(s, 'base64url');
        if (b.toString('base64url') !== s || !/^[A-Za-z0-9_-]+$/.test(s)) throw new Error('not canonical');
        return nacl.secretbox.open(b.subarray(24), b.subarray(0, 24), keyRing.find(k)!.secret);
      },
    };
  }

  parse(): StepSpec<undefined> {
    const { text, decode } = this.#resumed();
    return {
      step: 'parse',
      what: 'JSON.parse of [claims, snapshot] (superjson.parse when the flag says so)',
      prepare: none,
      run: () => decode(text),
    };
  }

  restore(): StepSpec<unknown[]> {
    const { machine, arguments: input } = this.#round;
    return {
      step: 'restore',
      what: 'createActor(machine, { snapshot, input })',
      prepare: (count) => many(count, () => this.#parsedSnapshot()),
      run: (snapshots, i) => createActor(machine, { snapshot: snapshots[i] as never, input }),
    };
  }

  start(): StepSpec<AnyActor[]> {
    return {
      step: 'start',
      what: 'actor.subscribe + actor.start() on the restored actor',
      prepare: (count) => many(count, () => this.#restored()),
      run: (actors, i) => started(actors[i]!),
    };
  }

  /** Sends the round's answer `index`, to an actor that already took the answers before it. */
  send(index: number): StepSpec<AnyActor[]> {
    const event = this.#events[index]!;
    return {
      step: `send (${this.#round.answers[index]!.key})`,
      what: `actor.send(${event.type})`,
      prepare: (count) => many(count, () => this.#sent(index)),
      run: (actors, i) => actors[i]!.send(event),
    };
  }

  persist(): StepSpec<AnyActor[]> {
    return {
      step: 'persist',
      what: 'getPersistedSnapshot() without output/error',
      prepare: (count) => many(count, () => this.#sent(this.#events.length)),
      run: (actors, i) => persistOf(actors[i]!),
    };
  }

  stringify(): StepSpec<undefined> {
    const { claims, persisted } = this.#sealing();
    return {
      step: 'stringify',
      what: 'isJsonFaithful(snapshot), then JSON.stringify([claims, snapshot]) (else superjson)',
      prepare: none,
      run: () => encode(persisted, [claims, persisted]),
    };
  }

  seal(): StepSpec<undefined> {
    const { plain } = this.#sealing();
    const key = this.#round.keyRing.current;
    return {
      step: 'seal',
      what: 'random nonce, secretbox, base64url',
      prepare: none,
      run: () => {
        const nonce = new Uint8Array(randomBytes(24));
        const box = nacl.secretbox(plain, nonce, key.secret);
        return `b1.${key.id}.${Buffer.concat([nonce, box]).toString('base64url')}`;
      },
    };
  }

  binding(): StepSpec<undefined> {
    const { principal, arguments: args } = this.#round;
    return {
      step: 'binding',
      what: 'digests of principal and canonical arguments',
      prepare: none,
      run: () => [shortDigest(`principal\u0000${principal}`), shortDigest(canonicalJson(args))],
    };
  }

  /** Maps the round's answer `index` to its event, as the engine's delivery does for each answer. */
  answerMapping(index: number): StepSpec<undefined> {
    const answer = this.#round.answers[index]!;
    return {
      step: `answer mapping (${answer.key})`,
      what: 'pendingQuestions + the asked schema + interpretAnswer (ajv) + can()',
      prepare: none,
      run: () => {
        const outcome = this.#mapAnswer(answer);
        return 'event' in outcome && this.#waiting.can(outcome.event);
      },
    };
  }

  ask(): StepSpec<undefined> {
    const snapshot = this.#answered;
    return {
      step: 'ask',
      what: 'pendingQuestions + toInputRequest for the questions asked next',
      prepare: none,
      run: () => pendingQuestions(snapshot).map((p) => toInputRequest(p.question, snapshot.context)),
    };
  }

  #mapAnswer(answer: RoundAnswer) {
    const snapshot = this.#waiting;
    const pending = pendingQuestions(snapshot).find((p) => p.question.key === answer.key);
    if (!pending) throw new Error(`"${answer.key}" is not asked`);
    const { question } = pending;
    const schema = question.kind === 'form' ? requestedSchemaOf(question, snapshot.context) : undefined;
    return interpretAnswer(question, schema, answer.response, this.#validator);
  }

  #resumed(): OpenedByHand {
    if (!this.#opened) throw new Error('a first round opens no state');
    return this.#opened;
  }

  #sealing() {
    if (!this.#next) throw new Error('a last round seals no state');
    return this.#next;
  }

  #parsedSnapshot(): unknown {
    const { text, decode } = this.#resumed();
    return (decode(text) as [unknown, unknown])[1];
  }

  #restored(): AnyActor {
    return createActor(this.#round.machine, {
      snapshot: this.#parsedSnapshot() as never,
      input: this.#round.arguments,
    });
  }

  /** The round's actor started: restored from its state, or built from its input on a first round. */
  #started(): AnyActor {
    const { machine, arguments: input } = this.#round;
    return started(this.#opened ? this.#restored() : createActor(machine, { input }));
  }

  /** The started actor after the round's first `count` answers. */
  #sent(count: number): AnyActor {
    const actor = this.#started();
    for (let i = 0; i < count; i++) actor.send(this.#events[i]!);
    return actor;
  }
}
