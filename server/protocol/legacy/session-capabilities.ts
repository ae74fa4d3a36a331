/**
 * What a 2025-11-25 session keeps of the capabilities its client declared in `initialize`: only
 * what Baton asks about (engine/flow/pending-questions.ts, clientSupports): elicitation (form,
 * URL), sampling (with tools), roots. The session id carries them sealed and the instance keeps
 * them in memory; a client padding its capabilities (0.9 MiB in one red-team probe) no longer
 * makes every one of its sessions that large. Kept as the same shape, values emptied, so the
 * answers of clientSupports do not change.
 */
import { isRecord } from '../../engine/index.js';

export function sessionCapabilities(declared: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  const { elicitation, sampling, roots } = declared;
  if (isRecord(elicitation)) {
    const modes: Record<string, unknown> = {};
    // An empty elicitation object means form only (2025-11-25), so an object holding only modes
    // Baton does not know must stay non-empty: it supports neither form nor URL.
    if ('form' in elicitation) modes.form = {};
    if (isRecord(elicitation.url)) modes.url = {};
    if (Object.keys(modes).length === 0 && Object.keys(elicitation).length > 0) modes.other = {};
    kept.elicitation = modes;
  }
  if (isRecord(sampling)) kept.sampling = isRecord(sampling.tools) ? { tools: {} } : {};
  if (isRecord(roots)) kept.roots = {};
  return kept;
}
