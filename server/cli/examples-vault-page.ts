/**
 * The examples' vault page as `baton serve` and `baton dev` mount it beside the endpoint. The page
 * must accept exactly the user who started a flow (docs/security.md, "URL elicitation"): that user
 * is the principal the endpoint's `authenticate` hook named, `iss|sub` under OAuth. So the page
 * identifies its visitor with that very hook, built once from the environment and handed to both:
 * a page that knew only the static tokens took an OAuth user for `anonymous` and refused their
 * own link with 403.
 */
import type { EnvironmentConfig } from '../settings/environment-config.js';
import { authenticationOf } from '../settings/security-options.js';
import type { ServeOptions } from '../serve.js';
import { pageVisitor } from '../http/index.js';
import { vaultPageRouter, type SecretVault } from '../../machines/index.js';

/** The options that serve the vault page: the endpoint's authentication and the page that shares it. */
export function examplesVaultPage(
  config: EnvironmentConfig,
  vault: SecretVault,
): Pick<ServeOptions, 'authenticate' | 'protectedResource' | 'routers'> {
  const authentication = authenticationOf(config);
  return {
    ...authentication,
    routers: [
      vaultPageRouter(vault, {
        keyRing: config.keyRing,
        identify: pageVisitor(authentication.authenticate),
        asksForToken: authentication.authenticate !== undefined,
      }),
    ],
  };
}
