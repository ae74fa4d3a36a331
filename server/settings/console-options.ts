/**
 * The console's settings from the environment (docs/console.md, docs/configuration.md):
 * BATON_CONSOLE=1 (or `baton serve --console`) turns it on, `baton dev` always; BATON_OPERATORS
 * names who may open it with a static token (names from BATON_TOKENS) or an OAuth principal
 * (`<issuer>|<subject>`); BATON_OPERATOR_SCOPE is the OAuth scope that makes any token an
 * operator's (`baton:operator`).
 */
import { ConfigurationError } from '../engine/index.js';
import type { ConsoleOptions } from '../create-server.js';

export interface ConsoleSettings {
  /** BATON_CONSOLE=1 or `--console`; `baton dev` sets it. */
  enabled: boolean;
  /** Principal ids: `token:<name>` for a BATON_TOKENS name, `<issuer>|<subject>` as given. */
  operators: string[];
  operatorScope?: string;
  /** `baton dev`: with no authentication, callers on loopback are operators. */
  loopback: boolean;
}

const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]{1,200}$/; // RFC 6749 scope-token

export function consoleFromEnvironment(
  env: NodeJS.ProcessEnv,
  tokens: Map<string, string> | undefined,
): ConsoleSettings {
  const flag = env.BATON_CONSOLE;
  if (flag !== undefined && flag !== '' && flag !== '0' && flag !== '1') {
    throw new ConfigurationError(`BATON_CONSOLE must be 1 (on) or 0 (off), got "${flag}".`);
  }
  const names = new Set(tokens?.values() ?? []);
  const operators = (env.BATON_OPERATORS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      if (entry.includes('|')) return entry;
      if (names.has(entry)) return `token:${entry}`;
      throw new ConfigurationError(
        `BATON_OPERATORS: "${entry}" is no principal of BATON_TOKENS; name a BATON_TOKENS entry ("ops" for "ops:<token>") or an OAuth principal as "<issuer>|<subject>".`,
      );
    });
  const scope = env.BATON_OPERATOR_SCOPE;
  if (scope !== undefined && scope !== '' && !SCOPE.test(scope)) {
    throw new ConfigurationError(`BATON_OPERATOR_SCOPE must be one OAuth scope (no spaces), got "${scope}".`);
  }
  return { enabled: flag === '1', operators, ...(scope ? { operatorScope: scope } : {}), loopback: false };
}

/**
 * The server's `console` option, or nothing when it is off. Turned on where no caller could ever
 * be an operator (static tokens, none named), it stops the server with how to fix it.
 */
export function consoleOption(
  settings: ConsoleSettings,
  auth: { tokens: boolean; oauth: boolean },
): { console?: ConsoleOptions } {
  if (!settings.enabled) return {};
  if (!auth.oauth && auth.tokens && settings.operators.length === 0 && !settings.loopback) {
    throw new ConfigurationError(
      'The console is on, and with BATON_TOKENS only a token named in BATON_OPERATORS may open it: set BATON_OPERATORS=<name> (a BATON_TOKENS principal).',
    );
  }
  if (!auth.oauth && !auth.tokens && !settings.loopback) {
    throw new ConfigurationError(
      'The console answers operators only, and without authentication nobody is one: set BATON_TOKENS with BATON_OPERATORS, or BATON_AUTH_SERVERS (tokens with the baton:operator scope). `baton dev` lets callers on loopback in.',
    );
  }
  return {
    console: {
      operators: settings.operators,
      ...(settings.operatorScope ? { operatorScope: settings.operatorScope } : {}),
      loopback: settings.loopback,
    },
  };
}
