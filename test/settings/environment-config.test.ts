import { expect } from 'chai';
import { configFromEnvironment, urlHost } from '../../server/settings/environment-config.js';
import { securityOptions } from '../../server/settings/security-options.js';
import { ConfigurationError, generateKeyEntry } from '../../server/engine/index.js';

describe('configFromEnvironment', () => {
  it('defaults to 127.0.0.1:3000 with an ephemeral dev key', () => {
    const config = configFromEnvironment({});
    expect(config).to.include({ port: 3000, host: '127.0.0.1', devKey: true, publicUrl: 'http://127.0.0.1:3000' });
    expect(config.keyRing.ids).to.deep.equal(['dev']);
    expect(config.limits).to.deep.equal({});
  });

  it('reads keys, Redis, tokens, authorization servers and limits', () => {
    const config = configFromEnvironment({
      PORT: '4000',
      BATON_KEYS: `${generateKeyEntry('new')},${generateKeyEntry('old')}`,
      BATON_REDIS_URL: 'redis://127.0.0.1:6379',
      BATON_TOKENS: 'alice:0123456789abcdef0123',
      BATON_AUTH_SERVERS: 'https://a.example, https://b.example',
      BATON_MAX_ROUNDS: '7',
      BATON_TIME_BUDGET_MS: '5000',
      BATON_MAX_STATE_BYTES: '8192',
      BATON_MAX_BODY_BYTES: '65536',
      BATON_MAX_CONCURRENT: '32',
      BATON_STATE_TTL: '120',
    });
    expect(config.keyRing.ids).to.deep.equal(['new', 'old']);
    expect(config.devKey).to.equal(false);
    expect(config.redis).to.equal('redis://127.0.0.1:6379');
    expect(config.tokens?.get('0123456789abcdef0123')).to.equal('alice');
    expect(config.authorizationServers).to.deep.equal(['https://a.example', 'https://b.example']);
    expect(config.limits).to.deep.equal({
      stateTtlSeconds: 120,
      maxBodyBytes: 65536,
      maxStateLength: 8192,
      maxRounds: 7,
      timeBudgetMs: 5000,
      maxConcurrentRequests: 32,
    });
  });

  it('reads the task settings', () => {
    const config = configFromEnvironment({
      BATON_TASK_TTL: '3600',
      BATON_TASK_POLL_MS: '500',
      BATON_TASK_LOCK_MS: '5000',
      BATON_TASK_CONCURRENCY: '4',
      BATON_TASK_STEP_BUDGET_MS: '60000',
    });
    expect(config.tasks).to.deep.equal({
      ttlSeconds: 3600,
      pollIntervalMs: 500,
      lockMs: 5000,
      concurrency: 4,
      stepBudgetMs: 60000,
    });
    expect(configFromEnvironment({}).tasks).to.deep.equal({});
  });

  it('reads the limits that hold before the body, the quota, and the Host and Origin allow-lists', () => {
    const config = configFromEnvironment({
      BATON_MAX_BODY_BYTES_IN_FLIGHT: '1000000',
      BATON_MAX_BODY_BYTES_PER_CLIENT: '200000',
      BATON_SINGLE_USE_QUOTA: '5',
      BATON_HEADERS_TIMEOUT_MS: '2000',
      BATON_REQUEST_TIMEOUT_MS: '9000',
      BATON_KEEP_ALIVE_TIMEOUT_MS: '1000',
      BATON_MAX_SOCKETS_PER_CLIENT: '10',
      BATON_ALLOWED_HOSTS: 'mcp.example.com, mcp.internal',
      BATON_ALLOWED_ORIGINS: 'https://app.example.com',
    });
    expect(config.limits).to.deep.equal({
      maxBodyBytesInFlight: 1000000,
      maxBodyBytesPerClient: 200000,
      singleUseQuota: 5,
    });
    expect(config.connectionLimits).to.deep.equal({
      headersTimeoutMs: 2000,
      requestTimeoutMs: 9000,
      keepAliveTimeoutMs: 1000,
      maxSocketsPerClient: 10,
    });
    expect(config.allowedHosts).to.deep.equal(['mcp.example.com', 'mcp.internal']);
    expect(config.allowedOrigins).to.deep.equal(['https://app.example.com']);
  });

  it('reads the XState path, and hands it to the server with the other settings', () => {
    expect(configFromEnvironment({}).xstatePath).to.equal(undefined);
    const config = configFromEnvironment({ BATON_XSTATE_PATH: 'public' });
    expect(config.xstatePath).to.equal('public');
    expect(securityOptions(config).xstatePath).to.equal('public');
  });

  it('reads BATON_START_ON as tool=version pairs', () => {
    expect(configFromEnvironment({}).startOn).to.equal(undefined);
    expect(configFromEnvironment({ BATON_START_ON: 'release=v1, ship-release=3f2a' }).startOn).to.deep.equal({
      release: 'v1',
      'ship-release': '3f2a',
    });
  });

  it('names a wildcard address as 127.0.0.1 and brackets IPv6 in URLs', () => {
    expect(urlHost('0.0.0.0')).to.equal('127.0.0.1');
    expect(urlHost('::')).to.equal('127.0.0.1');
    expect(urlHost('::1')).to.equal('[::1]');
    expect(urlHost('10.0.0.12')).to.equal('10.0.0.12');
    expect(configFromEnvironment({ HOST: '0.0.0.0', PORT: '8080' }).publicUrl).to.equal('http://127.0.0.1:8080');
  });

  const bad: Array<[string, Record<string, string>]> = [
    ['a port that is not a number', { PORT: 'eighty' }],
    ['a port out of range', { PORT: '70000' }],
    ['a zero limit', { BATON_MAX_ROUNDS: '0' }],
    ['a fractional limit', { BATON_TIME_BUDGET_MS: '1.5' }],
    ['a task TTL that is not a whole number', { BATON_TASK_TTL: 'a day' }],
    ['a zero task poll interval', { BATON_TASK_POLL_MS: '0' }],
    ['a Redis URL without redis://', { BATON_REDIS_URL: 'localhost:6379' }],
    ['a token that is too short', { BATON_TOKENS: 'alice:short' }],
    ['a token entry without a principal', { BATON_TOKENS: ':0123456789abcdef0123' }],
    ['a malformed key ring', { BATON_KEYS: 'nokey' }],
    ['a token a bearer header cannot carry', { BATON_TOKENS: 'alice:0123456789 abcdef0123' }],
    ['a token with a colon in it', { BATON_TOKENS: 'alice:0123456789:abcdef0123' }],
    ['a public URL that is not a URL', { BATON_PUBLIC_URL: 'mcp.example.com' }],
    ['a public URL that is not http', { BATON_PUBLIC_URL: 'ftp://mcp.example.com' }],
    ['an authorization server that is not a URL', { BATON_AUTH_SERVERS: 'https://a.example,auth' }],
    ['an allowed origin with a path', { BATON_ALLOWED_ORIGINS: 'https://app.example.com/page' }],
    ['an allowed origin that is not a URL', { BATON_ALLOWED_ORIGINS: 'app.example.com' }],
    ['a zero socket cap', { BATON_MAX_SOCKETS_PER_CLIENT: '0' }],
    ['an XState path that is not auto or public', { BATON_XSTATE_PATH: 'fast' }],
    ['a start-on without a version', { BATON_START_ON: 'release' }],
    ['a start-on naming a tool twice', { BATON_START_ON: 'release=v1,release=v2' }],
  ];
  for (const [label, env] of bad) {
    it(`refuses ${label} with a ConfigurationError that says what to fix`, () => {
      expect(() => configFromEnvironment(env)).to.throw(ConfigurationError);
    });
  }
});
