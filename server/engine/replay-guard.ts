/**
 * The single-use guard. Binding and expiry do not stop a sealed state from being presented twice
 * (spec, MRTR "Security": the server must enforce single use itself), so a flow that commits an
 * effect (a payment, a release) claims the state's unique id before it runs. The guard also keeps
 * the round's outcome, so a client that resends the same state after a dropped connection gets
 * the same answer instead of a second effect.
 */
export type GuardClaim =
  /** First presentation: run the round, then `settle` it. */
  | { status: 'claimed' }
  /** Another request holds the claim right now. */
  | { status: 'in_progress' }
  /**
   * A claim whose run never settled within its deadline: the instance running it died. Its
   * effect may have happened, so the state is never run again.
   */
  | { status: 'abandoned' }
  /** Already run: the serialized outcome of that run. */
  | { status: 'settled'; outcome: string };

export interface ReplayGuard {
  /**
   * Atomically claims `id` for `ttlSeconds` (the state's remaining lifetime). The run must settle
   * by `runDeadline` (epoch ms: the round's time budget and a margin), or the claim is abandoned.
   */
  claim(id: string, ttlSeconds: number, runDeadline: number): Promise<GuardClaim>;
  /** Records the outcome of the claimed run, kept until the claim expires. */
  settle(id: string, outcome: string): Promise<void>;
  /** Gives the claim back: the round was refused before anything ran. */
  release(id: string): Promise<void>;
}

const PENDING = '\u0000pending:';

/** The value a claim holds while its run is going: a marker and the run's deadline. */
export function pendingValue(runDeadline: number): string {
  return `${PENDING}${runDeadline}`;
}

/** Reads a stored value back into a claim result, as seen at `now`. */
export function readClaim(value: string, now: number): GuardClaim {
  if (!value.startsWith(PENDING)) return { status: 'settled', outcome: value };
  const deadline = Number(value.slice(PENDING.length));
  return Number.isFinite(deadline) && deadline < now ? { status: 'abandoned' } : { status: 'in_progress' };
}

/** One instance only: a fleet shares a Redis guard. Bounded, and expiring with the states. */
export class MemoryReplayGuard implements ReplayGuard {
  readonly #entries = new Map<string, { value: string; expiresAt: number }>();
  readonly #clock: () => number;
  readonly #maxEntries: number;

  constructor(options: { clock?: () => number; maxEntries?: number } = {}) {
    this.#clock = options.clock ?? Date.now;
    this.#maxEntries = options.maxEntries ?? 100_000;
  }

  async claim(id: string, ttlSeconds: number, runDeadline: number): Promise<GuardClaim> {
    const now = this.#clock();
    const existing = this.#entries.get(id);
    if (existing && existing.expiresAt > now) return readClaim(existing.value, now);
    this.#makeRoom(now);
    this.#entries.set(id, { value: pendingValue(runDeadline), expiresAt: now + ttlSeconds * 1000 });
    return { status: 'claimed' };
  }

  async settle(id: string, outcome: string): Promise<void> {
    const entry = this.#entries.get(id);
    if (entry) entry.value = outcome;
  }

  async release(id: string): Promise<void> {
    this.#entries.delete(id);
  }

  /** Drops expired claims when the guard is full; still full of live ones, refuses (fails closed). */
  #makeRoom(now: number) {
    if (this.#entries.size < this.#maxEntries) return;
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
    // Still full of live claims: fail closed. Dropping one would let its state be presented again
    // and run its effect twice, and a client able to open many flows could force exactly that.
    if (this.#entries.size >= this.#maxEntries) {
      throw new Error(
        `the in-memory single-use guard holds ${this.#maxEntries} live claims; wait for states to expire or set BATON_REDIS_URL`,
      );
    }
  }
}
