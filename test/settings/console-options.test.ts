/** The console's settings from the environment (console-options.ts, docs/configuration.md). */
import { expect } from 'chai';
import { ConfigurationError, generateKeyEntry, silentLogger } from '../../server/engine/index.js';
import { serve } from '../../server/serve.js';
import { numberTask } from '../helpers/number-task.js';
import { configFromEnvironment } from '../../server/settings/environment-config.js';
import { consoleFromEnvironment, consoleOption } from '../../server/settings/console-options.js';

const TOKENS = 'ops:ops-token-0123456789abcdef,user:user-token-0123456789abcdef';

describe('console settings', () => {
  it('is off unless BATON_CONSOLE=1, and names operators by BATON_TOKENS name or OAuth principal', () => {
    expect(configFromEnvironment({}).console).to.deep.equal({ enabled: false, operators: [], loopback: false });
    const settings = configFromEnvironment({
      BATON_CONSOLE: '1',
      BATON_TOKENS: TOKENS,
      BATON_OPERATORS: 'ops, https://issuer.example|alice',
      BATON_OPERATOR_SCOPE: 'ops:console',
    }).console;
    expect(settings).to.deep.equal({
      enabled: true,
      operators: ['token:ops', 'https://issuer.example|alice'],
      operatorScope: 'ops:console',
      loopback: false,
    });
  });

  it('refuses what it cannot use, saying how to fix it', () => {
    for (const env of [
      { BATON_CONSOLE: 'yes' },
      { BATON_TOKENS: TOKENS, BATON_OPERATORS: 'nobody' },
      { BATON_OPERATOR_SCOPE: 'two scopes' },
    ]) {
      expect(
        () => consoleFromEnvironment(env, configFromEnvironment({ BATON_TOKENS: TOKENS }).tokens),
        JSON.stringify(env),
      ).to.throw(ConfigurationError);
    }
  });

  it('stops a server whose console no caller could ever open, except in baton dev', () => {
    const on = { enabled: true, operators: [], loopback: false };
    expect(() => consoleOption(on, { tokens: true, oauth: false })).to.throw(ConfigurationError, /BATON_OPERATORS/);
    expect(() => consoleOption(on, { tokens: false, oauth: false })).to.throw(ConfigurationError);
    expect(consoleOption(on, { tokens: false, oauth: true })).to.deep.equal({
      console: { operators: [], loopback: false },
    });
    expect(consoleOption({ ...on, loopback: true }, { tokens: false, oauth: false })).to.deep.equal({
      console: { operators: [], loopback: true },
    });
    expect(consoleOption({ ...on, enabled: false }, { tokens: false, oauth: false })).to.deep.equal({});
  });
});

describe('serve() with BATON_CONSOLE=1', () => {
  it('serves the console to the operator BATON_OPERATORS names, and 404 to other tokens', async () => {
    const serving = await serve({
      tools: [numberTask],
      port: 0,
      logger: silentLogger,
      env: { BATON_KEYS: generateKeyEntry('k'), BATON_TOKENS: TOKENS, BATON_OPERATORS: 'ops', BATON_CONSOLE: '1' },
    });
    try {
      const at = (token: string) =>
        fetch(new URL('/console', serving.url), { headers: { authorization: `Bearer ${token}` } }).then(
          (r) => r.status,
        );
      expect(await at('ops-token-0123456789abcdef')).to.equal(200);
      expect(await at('user-token-0123456789abcdef')).to.equal(404);
    } finally {
      await serving.close();
    }
  });
});
