/**
 * BATON_AUTH_SERVERS, BATON_AUDIENCE, BATON_TOKEN_LEEWAY_SECONDS and BATON_TOKEN_MAX_LIFETIME,
 * and what `baton serve` builds from them.
 */
import { expect } from 'chai';
import { configFromEnvironment } from '../../server/settings/environment-config.js';
import { securityOptions } from '../../server/settings/security-options.js';
import { ConfigurationError } from '../../server/engine/index.js';

describe('OAuth settings from the environment', () => {
  it('turns access-token validation on when BATON_AUTH_SERVERS is set, for the canonical URI', () => {
    const config = configFromEnvironment({
      BATON_PUBLIC_URL: 'https://mcp.example.com',
      BATON_AUTH_SERVERS: 'https://id.example.com',
    });
    expect(config.oauth).to.deep.equal({
      issuers: ['https://id.example.com'],
      audience: 'https://mcp.example.com/mcp',
    });
    const options = securityOptions(config);
    expect(options.authenticate).to.be.a('function');
    expect(options.protectedResource).to.deep.equal({
      resource: 'https://mcp.example.com/mcp',
      authorizationServers: ['https://id.example.com'],
    });
  });

  it('stays off without BATON_AUTH_SERVERS (static tokens alone, or nothing)', () => {
    expect(configFromEnvironment({}).oauth).to.equal(undefined);
    expect(securityOptions(configFromEnvironment({})).authenticate).to.equal(undefined);
  });

  it('takes BATON_AUDIENCE and BATON_TOKEN_LEEWAY_SECONDS', () => {
    const config = configFromEnvironment({
      BATON_AUTH_SERVERS: 'https://id.example.com/tenant1',
      BATON_AUDIENCE: 'https://api.example.com/mcp',
      BATON_TOKEN_LEEWAY_SECONDS: '0',
    });
    expect(config.oauth).to.deep.equal({
      issuers: ['https://id.example.com/tenant1'],
      audience: 'https://api.example.com/mcp',
      leewaySeconds: 0,
    });
  });

  it('takes BATON_TOKEN_MAX_LIFETIME, a positive whole number of seconds', () => {
    const config = configFromEnvironment({
      BATON_AUTH_SERVERS: 'https://id.example.com',
      BATON_TOKEN_MAX_LIFETIME: '3600',
    });
    expect(config.oauth?.maxTokenLifetimeSeconds).to.equal(3600);
    for (const bad of ['0', '-5', '1.5', 'day']) {
      expect(() =>
        configFromEnvironment({ BATON_AUTH_SERVERS: 'https://id.example.com', BATON_TOKEN_MAX_LIFETIME: bad }),
      ).to.throw(ConfigurationError);
    }
  });

  it('refuses an issuer that is not https (except on loopback), or has a query, and a bad leeway', () => {
    const refused = (env: Record<string, string>) =>
      expect(() => configFromEnvironment(env)).to.throw(ConfigurationError);
    refused({ BATON_AUTH_SERVERS: 'http://id.example.com' });
    refused({ BATON_AUTH_SERVERS: 'https://id.example.com/?tenant=1' });
    refused({ BATON_AUTH_SERVERS: 'id.example.com' });
    refused({ BATON_AUTH_SERVERS: 'https://id.example.com', BATON_TOKEN_LEEWAY_SECONDS: '301' });
    refused({ BATON_AUTH_SERVERS: 'https://id.example.com', BATON_TOKEN_LEEWAY_SECONDS: '-1' });
    expect(configFromEnvironment({ BATON_AUTH_SERVERS: 'http://127.0.0.1:9000' }).oauth?.issuers).to.deep.equal([
      'http://127.0.0.1:9000',
    ]);
  });
});
