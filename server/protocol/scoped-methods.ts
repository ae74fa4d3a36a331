/**
 * Where scopes are checked: each method that reaches a tool, prompt or resource (or a task of a
 * tool) is wrapped so the entry's scopes are required before its handler runs, hence before any
 * round starts. The 2025-11-25 layer calls the same handlers, so both eras are checked here once.
 * The method table is wrapped only when some entry declares scopes (or the tools may change while
 * serving), so a catalogue without scopes pays nothing.
 */
import {
  isRecord,
  type PromptRegistry,
  type ResourceRegistry,
  type TaskManager,
  type ToolRegistry,
} from '../engine/index.js';
import type { MethodContext, MethodSpec } from './method-context.js';
import type { ScopePolicy } from './scope-policy.js';
import { followedTaskIds } from './methods/subscriptions-listen.js';

type Scopes = readonly string[] | undefined;
type ScopesOf = (context: MethodContext) => Scopes | Promise<Scopes>;

export interface ScopedCatalogue {
  tools: ToolRegistry;
  prompts: PromptRegistry;
  resources: ResourceRegistry;
  tasks?: TaskManager | undefined;
}

/** Every scope the entries declare, sorted: `scopes_supported` and the 401 challenge's `scope`. */
export function catalogueScopes(entries: ReadonlyArray<{ scopes?: readonly string[] }>): string[] {
  return [...new Set(entries.flatMap((entry) => entry.scopes ?? []))].sort();
}

function guarded(spec: MethodSpec, policy: ScopePolicy, scopesOf: ScopesOf): MethodSpec {
  return {
    ...spec,
    async handle(context) {
      if (policy.restricts(context.principal)) policy.require(await scopesOf(context), context.principal);
      return spec.handle(context);
    },
  };
}

/** The scopes of the tool a task runs; nothing for a task this principal does not have. */
async function taskScopes(catalogue: ScopedCatalogue, taskId: unknown, principal: string): Promise<string[]> {
  const tool = typeof taskId === 'string' ? await catalogue.tasks?.toolOf(taskId, principal) : undefined;
  return (tool && catalogue.tools.get(tool)?.scopes) || [];
}

/** What bounds the look-ups a scope check makes for one request. */
export interface ScopeCheckLimits {
  /** The task ids one listen follows at most (ListenOptions.maxTaskIds): the only ones checked. */
  listenMaxTaskIds: number;
}

function scopesOfMethods(catalogue: ScopedCatalogue, limits: ScopeCheckLimits): Record<string, ScopesOf> {
  const { tools, prompts, resources } = catalogue;
  const named = ({ params }: MethodContext) => (typeof params.name === 'string' ? params.name : '');
  return {
    'tools/call': (context) => tools.get(named(context))?.scopes,
    'prompts/get': (context) => prompts.get(named(context))?.scopes,
    'resources/read': ({ params }) =>
      typeof params.uri === 'string' ? resources.resolve(params.uri)?.definition.scopes : undefined,
    'completion/complete': ({ params }) => {
      const ref = isRecord(params.ref) ? params.ref : {};
      if (ref.type === 'ref/prompt' && typeof ref.name === 'string') return prompts.get(ref.name)?.scopes;
      if (ref.type === 'ref/resource' && typeof ref.uri === 'string') return resources.template(ref.uri)?.scopes;
      return undefined;
    },
    'tasks/get': ({ params, principal }) => taskScopes(catalogue, params.taskId, principal.id),
    'tasks/update': ({ params, principal }) => taskScopes(catalogue, params.taskId, principal.id),
    'tasks/cancel': ({ params, principal }) => taskScopes(catalogue, params.taskId, principal.id),
    // Following a task tells its status and result: the same scopes as reading it. Only the ids
    // the stream will follow are looked up, each once, by its head (never the whole record).
    'subscriptions/listen': async ({ params, principal }) => {
      const taskIds = isRecord(params.notifications) ? params.notifications.taskIds : undefined;
      if (!Array.isArray(taskIds)) return undefined;
      const followed = followedTaskIds(taskIds, limits.listenMaxTaskIds);
      const all = await Promise.all(followed.map((id) => taskScopes(catalogue, id, principal.id)));
      return [...new Set(all.flat())].sort();
    },
  };
}

/** The method table with every method that reaches a scoped entry guarded. */
export function withScopeChecks(
  methods: Record<string, MethodSpec>,
  catalogue: ScopedCatalogue,
  policy: ScopePolicy,
  limits: ScopeCheckLimits,
): Record<string, MethodSpec> {
  const guardedMethods = { ...methods };
  for (const [name, scopesOf] of Object.entries(scopesOfMethods(catalogue, limits))) {
    const spec = methods[name];
    if (spec) guardedMethods[name] = guarded(spec, policy, scopesOf);
  }
  return guardedMethods;
}
