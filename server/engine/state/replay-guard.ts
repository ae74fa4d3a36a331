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
  | { status: 'settled'; outcome: string }
  /** The owner already holds its quota of live claims; nothing was claimed. */
  | { status: 'over_quota'; quota: number }
  /**
   * Issued before the guard's epoch: the guard has lost its claims since (Redis restarted without
   * persistence, was flushed or evicted keys; a process restarted) and cannot tell whether this
   * state already ran, so it counts as used.
   */
  | { status: 'before_epoch' };

/** Who claims, for the quota, and when the state was issued, for the epoch. */
export interface ClaimScope {
  /** The principal, or the client address of an anonymous caller. */
  owner: string;
  /** Live claims one owner may hold. */
  quota: number;
  /** When the state was sealed, in seconds since the epoch (its `issuedAt` claim). */
  issuedAt: number;
}

/** Live single-use claims one caller may hold at once, unless the guard is given another quota. */
export const DEFAULT_SINGLE_USE_QUOTA = 1000;

/**
 * What keeps a single-use state from running its effect twice: `MemoryReplayGuard` for one
 * instance, `RedisReplayGuard` for a fleet, or your own implementation.
 */
export interface ReplayGuard {
  /**
   * Atomically claims `id` for `ttlSeconds` (the state's remaining lifetime). The run must settle
   * by `runDeadline` (epoch ms: the round's time budget and a margin), or the claim is abandoned.
   */
  claim(id: string, ttlSeconds: number, runDeadline: number, scope?: ClaimScope): Promise<GuardClaim>;
  /**
   * Whether `id` holds a claim. Lets a presentation that answers nothing go without one: it cannot
   * run an effect, so it must not use up the owner's quota (see single-use-run.ts).
   */
  peek?(id: string): Promise<boolean>;
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

interface MemoryEntry {
  value: string;
  expiresAt: number;
  owner: string | undefined;
}

/**
 * One instance only: a fleet shares a Redis guard. Bounded, and expiring with the states. Its
 * epoch is its creation (to the second): the claims of an earlier process are gone, so the states
 * issued before it started count as used.
 */
export class MemoryReplayGuard implements ReplayGuard {
  readonly #entries = new Map<string, MemoryEntry>();
  readonly #byOwner = new Map<string, Set<string>>();
  readonly #clock: () => number;
  readonly #maxEntries: number;
  readonly #epochSeconds: number;

  constructor(options: { clock?: () => number; maxEntries?: number } = {}) {
    this.#clock = options.clock ?? Date.now;
    this.#maxEntries = options.maxEntries ?? 100_000;
    this.#epochSeconds = Math.floor(this.#clock() / 1000);
  }

  async claim(id: string, ttlSeconds: number, runDeadline: number, scope?: ClaimScope): Promise<GuardClaim> {
    const now = this.#clock();
    if (scope && scope.issuedAt < this.#epochSeconds) return { status: 'before_epoch' };
    const existing = this.#entries.get(id);
    if (existing && existing.expiresAt > now) return readClaim(existing.value, now);
    if (existing) this.#drop(id);
    if (scope && this.#liveClaimsOf(scope.owner, scope.quota, now) >= scope.quota) {
      return { status: 'over_quota', quota: scope.quota };
    }
    this.#makeRoom(now);
    this.#entries.set(id, {
      value: pendingValue(runDeadline),
      expiresAt: now + ttlSeconds * 1000,
      owner: scope?.owner,
    });
    if (scope) {
      const ids = this.#byOwner.get(scope.owner) ?? new Set<string>();
      ids.add(id);
      this.#byOwner.set(scope.owner, ids);
    }
    return { status: 'claimed' };
  }

  async peek(id: string): Promise<boolean> {
    const entry = this.#entries.get(id);
    return entry !== undefined && entry.expiresAt > this.#clock();
  }

  async settle(id: string, outcome: string): Promise<void> {
    const entry = this.#entries.get(id);
    if (entry) entry.value = outcome;
  }

  async release(id: string): Promise<void> {
    this.#drop(id);
  }

  #drop(id: string) {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    if (entry.owner === undefined) return;
    const ids = this.#byOwner.get(entry.owner);
    ids?.delete(id);
    if (ids?.size === 0) this.#byOwner.delete(entry.owner);
  }

  /** The owner's claims that have not expired (once at the quota, expired ones are dropped first). */
  #liveClaimsOf(owner: string, quota: number, now: number): number {
    const ids = this.#byOwner.get(owner);
    if (!ids || ids.size < quota) return ids?.size ?? 0;
    for (const id of ids) if ((this.#entries.get(id)?.expiresAt ?? 0) <= now) this.#drop(id);
    return this.#byOwner.get(owner)?.size ?? 0;
  }

  /** Drops expired claims when the guard is full; still full of live ones, refuses (fails closed). */
  #makeRoom(now: number) {
    if (this.#entries.size < this.#maxEntries) return;
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#drop(key);
    // Still full of live claims: fail closed. Dropping one would let its state be presented again
    // and run its effect twice, and a client able to open many flows could force exactly that.
    if (this.#entries.size >= this.#maxEntries) {
      throw new Error(
        `the in-memory single-use guard holds ${this.#maxEntries} live claims; wait for states to expire or set BATON_REDIS_URL`,
      );
    }
  }
}
