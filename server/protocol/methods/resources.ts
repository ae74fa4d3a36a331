/**
 * `resources/list`, `resources/templates/list` and `resources/read` (spec, server/resources).
 * A resource is a machine too, so a read may ask for input first (MRTR on resources/read).
 */
import { toResourceContents, type FlowEngine, type ResourceRegistry } from '../../engine/index.js';
import { hintsFor } from '../caching-hints.js';
import { ErrorCode } from '../error-catalogue.js';
import type { MethodSpec } from '../method-context.js';
import { paginate } from '../pagination.js';
import { invalidParams, ProtocolError } from '../protocol-error.js';
import { isRetry, runFlowRound } from './flow-call.js';

interface ListOptions {
  ttlMs: number;
  pageSize: number;
}

const optional = <T extends object>(entries: T) =>
  Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));

export function resourcesListMethod(registry: ResourceRegistry, options: ListOptions): MethodSpec {
  return {
    capability: 'resources',
    async handle({ params, principal }) {
      const page = paginate(registry.resources(), (r) => r.uri, params.cursor, options.pageSize);
      return {
        resources: page.items.map(({ uri, name, title, description, mimeType, size }) =>
          optional({ uri, name, title, description, mimeType, size }),
        ),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        ...hintsFor(options.ttlMs, principal),
      };
    },
  };
}

export function resourceTemplatesListMethod(registry: ResourceRegistry, options: ListOptions): MethodSpec {
  return {
    capability: 'resources',
    async handle({ params, principal }) {
      const page = paginate(registry.templates(), (t) => t.uriTemplate, params.cursor, options.pageSize);
      return {
        resourceTemplates: page.items.map(({ uriTemplate, name, title, description, mimeType }) =>
          optional({ uriTemplate, name, title, description, mimeType }),
        ),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        ...hintsFor(options.ttlMs, principal),
      };
    },
  };
}

export function resourcesReadMethod(
  registry: ResourceRegistry,
  engine: FlowEngine,
  options: { ttlMs: number },
): MethodSpec {
  return {
    capability: 'resources',
    async handle(context) {
      const { uri } = context.params;
      if (typeof uri !== 'string') throw invalidParams('Invalid params: uri must be a string');
      const resolved = registry.resolve(uri);
      // Not found is -32602 with the URI in data, never an empty contents array (spec, resources).
      if (!resolved) throw invalidParams('Resource not found', { uri });
      const { definition, input } = resolved;
      return runFlowRound(engine, context, {
        flow: { ...definition, method: 'resources/read', name: uri },
        arguments: input,
        finish: (outcome) => {
          if (outcome.kind === 'failed') throw new ProtocolError(ErrorCode.InternalError, 'Internal error');
          // A read completed by a retry depends on this user's answers: never shared (caching).
          const hints = isRetry(context.params)
            ? { ttlMs: 0, cacheScope: 'private' as const }
            : hintsFor(options.ttlMs, context.principal);
          return { contents: toResourceContents(uri, definition.mimeType, outcome.output), ...hints };
        },
      });
    },
  };
}
