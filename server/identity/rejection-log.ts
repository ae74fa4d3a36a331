/**
 * The `access_token_rejected` log line, at a bounded rate: at most one line per reason per
 * interval (10 s by default), and the next line of that reason says how many were left out
 * (`suppressed`). Reasons are a closed set, so the state is a dozen entries whatever the traffic,
 * and a flood of bad tokens (the red team sent 132,596) writes a few lines a minute, not one each.
 * The line names the reason only, never the token.
 */
import type { Logger } from '../engine/index.js';
import type { RejectionReason } from './access-token-rejected.js';

export const DEFAULT_REJECTION_LOG_INTERVAL_MS = 10_000;

export class RejectionLog {
  readonly #last = new Map<RejectionReason, { at: number; suppressed: number }>();

  constructor(
    private readonly logger: Logger | undefined,
    private readonly intervalMs: number = DEFAULT_REJECTION_LOG_INTERVAL_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  rejected(reason: RejectionReason): void {
    if (!this.logger) return;
    const now = this.clock();
    const last = this.#last.get(reason);
    if (last && now - last.at < this.intervalMs) {
      last.suppressed += 1;
      return;
    }
    this.logger.info('access_token_rejected', { reason, ...(last?.suppressed ? { suppressed: last.suppressed } : {}) });
    this.#last.set(reason, { at: now, suppressed: 0 });
  }
}
