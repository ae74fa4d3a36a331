/**
 * One admission rule for every instance total a caller can fill: the request gate, long-lived
 * requests (listen streams, 2025-11-25 calls waiting for an answer) and the in-memory task store's
 * bytes. A share per caller alone is not enough: 32 addresses at 16 listen streams each filled the
 * 512 an instance holds. So the rule prefers callers holding little:
 *
 * - below the high-water mark (three quarters of the total) a caller may hold up to its share;
 * - past it, only a caller that would then hold no more than the late share (a sixteenth of its
 *   share, at least one unit) is admitted, so the last quarter is kept for newcomers;
 * - the total itself is never passed.
 *
 * Taking the whole total then needs (3/4)·total/share + (1/4)·total/lateShare callers instead of
 * total/share: 152 for the default 512 listen streams at 16 each, instead of 32. Nothing that is
 * held is ever taken back: what this guarantees is room for a newcomer against that many callers.
 */

export interface ShareLimits {
  /** What the whole instance may hold. */
  total: number;
  /** What one caller may hold while the instance is below its high-water mark. */
  perCaller: number;
  /** The largest single amount one admission takes (a task's largest record); the late share is never below it. */
  unit?: number;
}

/**
 * Why an amount was refused: `instance` when the total would be passed (whoever asks), `client`
 * when this caller holds its share, or its late share while the instance is past the high-water
 * mark, and callers holding less are still admitted. `limit` is the bound that refused it.
 */
export interface ShareRefusal {
  scope: 'client' | 'instance';
  limit: number;
  /** The refusal came from the late share (the instance is past its high-water mark). */
  late: boolean;
}

/** Three quarters of the total: past it, only callers holding little are admitted. */
export function highWaterMark(total: number): number {
  return Math.floor((total * 3) / 4);
}

/** What a caller may hold once the instance is past its high-water mark. */
export function lateShare(limits: ShareLimits): number {
  return Math.max(limits.unit ?? 1, Math.floor(limits.perCaller / 16));
}

/**
 * The refusal for `amount` more by a caller holding `held`, while the instance holds `used`; or
 * undefined when it may take it. Checked in this order so that 503 means nobody is admitted now
 * and 429 means others still are.
 */
export function shareRefusal(
  limits: ShareLimits,
  used: number,
  held: number,
  amount: number,
): ShareRefusal | undefined {
  if (used + amount > limits.total) return { scope: 'instance', limit: limits.total, late: false };
  if (held + amount > limits.perCaller) return { scope: 'client', limit: limits.perCaller, late: false };
  if (used + amount > highWaterMark(limits.total)) {
    const late = lateShare(limits);
    if (held + amount > late) return { scope: 'client', limit: late, late: true };
  }
  return undefined;
}

/** Counts what each caller holds of one total and admits by the rule above. */
export class FairShare {
  readonly #held = new Map<string, number>();
  #used = 0;

  constructor(readonly limits: ShareLimits) {}

  /** Takes `amount` for `caller`, or answers why not (and takes nothing). */
  take(caller: string, amount = 1): ShareRefusal | undefined {
    const held = this.#held.get(caller) ?? 0;
    const refusal = shareRefusal(this.limits, this.#used, held, amount);
    if (refusal) return refusal;
    this.#held.set(caller, held + amount);
    this.#used += amount;
    return undefined;
  }

  /** Gives back what `take` took; a caller holding nothing is forgotten, so the map stays small. */
  give(caller: string, amount = 1): void {
    const left = (this.#held.get(caller) ?? amount) - amount;
    if (left > 0) this.#held.set(caller, left);
    else this.#held.delete(caller);
    this.#used -= amount;
  }

  /** What the instance holds now. */
  get used(): number {
    return this.#used;
  }

  /** What `caller` holds now. */
  heldBy(caller: string): number {
    return this.#held.get(caller) ?? 0;
  }
}
