/** `server/discover` (spec, server/discover): versions, capabilities, instructions; cacheable. */
import { hintsFor } from '../caching-hints.js';
import type { MethodSpec } from '../method-context.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../protocol-version.js';

export interface DiscoverOptions {
  capabilities: () => Record<string, unknown>;
  instructions?: string;
  ttlMs: number;
}

export function discoverMethod(options: DiscoverOptions): MethodSpec {
  return {
    async handle({ principal }) {
      return {
        supportedVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
        capabilities: options.capabilities(),
        ...(options.instructions ? { instructions: options.instructions } : {}),
        ...hintsFor(options.ttlMs, principal),
      };
    },
  };
}
