/**
 * Scopes per tool, prompt and resource (docs/security.md, "Scopes"). A caller whose principal
 * carries scopes (an OAuth access token) sees only the entries its scopes cover, and is refused
 * one it lacks with every scope the operation needs at once (spec, basic/authorization "Scope
 * Challenge Handling": all in a single challenge, not one per retry). A principal without scopes
 * (static tokens, stdio, no authentication) is not restricted.
 */
import { ErrorCode } from './error-catalogue.js';
import type { Principal } from './principal.js';
import { ProtocolError } from './protocol-error.js';

/**
 * The refusal: HTTP answers 403 with `WWW-Authenticate: Bearer error="insufficient_scope",
 * scope="…"`, the JSON-RPC error names the scopes too (stdio has no headers).
 */
export class InsufficientScope extends ProtocolError {
  constructor(readonly scopes: readonly string[]) {
    super(
      ErrorCode.InvalidRequest,
      `Forbidden: this operation needs the OAuth scopes ${scopes.join(' ')}`,
      { reason: 'insufficient_scope', scopes: [...scopes] },
      403,
    );
  }
}

/** Broader scopes and the narrower ones each implies, e.g. `{ 'deploy:admin': ['deploy:write'] }`. */
export type ScopeHierarchy = Readonly<Record<string, readonly string[]>>;

export class ScopePolicy {
  /** Every scope each broader scope implies, followed transitively. */
  readonly #implied = new Map<string, ReadonlySet<string>>();

  constructor(hierarchy: ScopeHierarchy = {}) {
    for (const broad of Object.keys(hierarchy)) {
      const reached = new Set<string>();
      const pending = [...(hierarchy[broad] ?? [])];
      while (pending.length > 0) {
        const scope = pending.pop()!;
        if (reached.has(scope)) continue;
        reached.add(scope);
        pending.push(...(Object.hasOwn(hierarchy, scope) ? hierarchy[scope]! : []));
      }
      this.#implied.set(broad, reached);
    }
  }

  /** Whether scopes may hide entries from this principal (then its lists are private). */
  restricts(principal: Principal): boolean {
    return principal.scopes !== undefined;
  }

  /** Whether the principal holds every scope in `needed` (directly or through a broader one). */
  allows(needed: readonly string[] | undefined, principal: Principal): boolean {
    const granted = principal.scopes;
    if (!needed || needed.length === 0 || granted === undefined) return true;
    return needed.every((scope) => granted.includes(scope) || granted.some((g) => this.#implied.get(g)?.has(scope)));
  }

  /** Throws InsufficientScope naming every scope in `needed` unless the principal holds them all. */
  require(needed: readonly string[] | undefined, principal: Principal): void {
    if (!this.allows(needed, principal)) throw new InsufficientScope(needed!);
  }
}
