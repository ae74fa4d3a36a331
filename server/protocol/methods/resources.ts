/**
 * `resources/list`, `resources/templates/list` and `resources/read` (spec, server/resources).
 * A resource is a machine too, so a read may ask for input first (MRTR on resources/read).
 */
import { definedFields, toResourceContents, type FlowEngine, type ResourceRegistry } from '../../engine/index.js';
import { hintsFor } from '../caching-hints.js';
import { ErrorCode } from '../error-catalogue.js';
import type { MethodSpec } from '../method-context.js';
import { invalidParams, ProtocolError } from '../protocol-error.js';
import { isRetry, runFlowRound } from './flow-call.js';
import { listMethod, type ListOptions } from './list-method.js';

export function resourcesListMethod(registry: ResourceRegistry, options: ListOptions): MethodSpec {
  return listMethod(
    {
      capability: 'resources',
      field: 'resources',
      items: () => registry.resources(),
      keyOf: (r) => r.uri,
      describe: ({ uri, name, title, description, mimeType, size, icons, _meta }) =>
        definedFields({ uri, name, title, description, mimeType, size, icons, _meta }),
    },
    options,
  );
}

export function resourceTemplatesListMethod(registry: ResourceRegistry, options: ListOptions): MethodSpec {
  return listMethod(
    {
      capability: 'resources',
      field: 'resourceTemplates',
      items: () => registry.templates(),
      keyOf: (t) => t.uriTemplate,
      describe: ({ uriTemplate, name, title, description, mimeType, icons, _meta }) =>
        definedFields({ uriTemplate, name, title, description, mimeType, icons, _meta }),
    },
    options,
  );
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
      // The URI read is the client's text; telemetry names the resource or template it matched.
      const catalogueName = definition.kind === 'template' ? definition.uriTemplate : definition.uri;
      return runFlowRound(engine, context, {
        flow: { ...definition, method: 'resources/read', name: uri, catalogueName },
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
