/**
 * Caps the request-body bytes held in memory at once, across every connection and per client
 * address, before any of a body is read. A body reserves its declared Content-Length up front (a
 * chunked body grows its reservation as it arrives); when the reservation does not fit, the
 * request is answered 503 with Retry-After and its body is never read. Without this, 1,000
 * connections each sending 1 MiB and stalling held a gigabyte until the body timeout.
 *
 * One connection holds at most one body at a time (Node serves an HTTP/1.1 connection's requests
 * one after another), so the per-connection cap is the body limit itself.
 */
export interface BodyBudgetLimits {
  /** Body bytes held at once by the whole instance. */
  totalBytes: number;
  /** Body bytes held at once for one client address (see client-address.ts). */
  perClientBytes: number;
}

export const DEFAULT_BODY_BYTES_IN_FLIGHT = 64 * 1024 * 1024;
export const DEFAULT_BODY_BYTES_PER_CLIENT = 16 * 1024 * 1024;

export interface BodyReservation {
  /** Reserves `bytes` more (a chunked body growing); false when that does not fit. */
  grow(bytes: number): boolean;
  /** Gives everything back; safe to call more than once. */
  release(): void;
}

export class BodyBudget {
  #total = 0;
  readonly #perClient = new Map<string, number>();

  constructor(readonly limits: BodyBudgetLimits) {}

  /** Reserves `bytes` for a body from `client`, or undefined when that would pass a cap. */
  reserve(client: string, bytes: number): BodyReservation | undefined {
    if (!this.fits(client, bytes)) return undefined;
    const reservation = new Reservation(this, client);
    reservation.take(bytes);
    return reservation;
  }

  /** Counts `bytes` more for `client` (negative to give them back). */
  adjust(client: string, bytes: number): void {
    this.#total += bytes;
    const held = (this.#perClient.get(client) ?? 0) + bytes;
    if (held > 0) this.#perClient.set(client, held);
    else this.#perClient.delete(client);
  }

  fits(client: string, bytes: number): boolean {
    return (
      this.#total + bytes <= this.limits.totalBytes &&
      (this.#perClient.get(client) ?? 0) + bytes <= this.limits.perClientBytes
    );
  }

  /** Bytes reserved right now (for tests and logs). */
  get heldBytes(): number {
    return this.#total;
  }

  get busyMessage(): string {
    return 'Server busy: too many request bodies are arriving at once; retry shortly';
  }
}

/** One body's share of the budget (a class: a request's reservation is made on the hot path). */
class Reservation implements BodyReservation {
  #held = 0;

  constructor(
    readonly budget: BodyBudget,
    readonly client: string,
  ) {}

  take(bytes: number): void {
    this.budget.adjust(this.client, bytes);
    this.#held += bytes;
  }

  grow(bytes: number): boolean {
    if (!this.budget.fits(this.client, bytes)) return false;
    this.take(bytes);
    return true;
  }

  release(): void {
    if (this.#held === 0) return;
    this.budget.adjust(this.client, -this.#held);
    this.#held = 0;
  }
}
