/**
 * Who is calling on stdio. There is no HTTP auth on stdio (spec, basic/authorization: stdio
 * servers SHOULD NOT use OAuth and take credentials from the environment): the process that
 * launched the server vouches for its user. Every sealed state is bound to this id, so a state
 * issued to one principal does not run for another, over stdio or HTTP.
 */
import type { Principal } from '../protocol/index.js';

/** The principal when the environment names none. */
export const STDIO_PRINCIPAL: Principal = Object.freeze({ id: 'stdio', authenticated: false });

/** `BATON_PRINCIPAL` names the user the launching client runs for; unset, everyone is `stdio`. */
export function principalFromEnvironment(env: NodeJS.ProcessEnv = process.env): Principal {
  const id = env.BATON_PRINCIPAL?.trim();
  // Results may then differ per user, so list results are marked private (spec, caching).
  return id ? { id, authenticated: true } : STDIO_PRINCIPAL;
}
