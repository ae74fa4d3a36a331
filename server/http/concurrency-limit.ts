/**
 * Caps the requests one instance works on at once, so one client flooding it cannot starve the
 * rest. A request takes a slot only once its body has arrived: a client that opens many requests
 * and sends their bodies slowly must not hold the slots honest requests need (body reads have
 * their own time limit instead). Over the cap: 503 with Retry-After and a message naming it.
 */
export class ConcurrencyGate {
  #active = 0;

  constructor(readonly max: number) {}

  /** Takes a slot, or returns false when all are taken. */
  tryEnter(): boolean {
    if (this.#active >= this.max) return false;
    this.#active += 1;
    return true;
  }

  leave(): void {
    this.#active -= 1;
  }

  get busyMessage(): string {
    return `Server busy: over the limit of ${this.max} concurrent requests; retry shortly`;
  }
}
