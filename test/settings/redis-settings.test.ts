/** Which Redis a fleet shares, from the environment (server/settings/redis-settings.ts). */
import { expect } from 'chai';
import { ConfigurationError } from '../../server/engine/index.js';
import { redisFromEnvironment } from '../../server/settings/redis-settings.js';

describe('the Redis settings', () => {
  it('reads one Redis, a Sentinel set or a cluster', () => {
    expect(redisFromEnvironment({})).to.equal(undefined);
    expect(redisFromEnvironment({ BATON_REDIS_URL: 'rediss://u:p@r.example:6380' })).to.equal(
      'rediss://u:p@r.example:6380',
    );
    expect(
      redisFromEnvironment({
        BATON_REDIS_SENTINELS: '10.0.0.1:26379, s2.example:26379,[::1]:26380',
        BATON_REDIS_SENTINEL_NAME: 'baton',
        BATON_REDIS_PASSWORD: 'secret',
        BATON_REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
        BATON_REDIS_TLS: '1',
      }),
    ).to.deep.equal({
      sentinels: [
        { host: '10.0.0.1', port: 26379 },
        { host: 's2.example', port: 26379 },
        { host: '::1', port: 26380 },
      ],
      name: 'baton',
      password: 'secret',
      sentinelPassword: 'sentinel-secret',
      tls: true,
    });
    expect(redisFromEnvironment({ BATON_REDIS_CLUSTER: '127.0.0.1:7000,127.0.0.1:7001' })).to.deep.equal({
      cluster: [
        { host: '127.0.0.1', port: 7000 },
        { host: '127.0.0.1', port: 7001 },
      ],
    });
  });

  const wrong: Array<[string, Record<string, string>, string]> = [
    [
      'two set-ups',
      { BATON_REDIS_URL: 'redis://a:1', BATON_REDIS_CLUSTER: 'a:1' },
      'BATON_REDIS_URL and BATON_REDIS_CLUSTER',
    ],
    ['a URL that is not redis://', { BATON_REDIS_URL: 'http://a:1' }, 'BATON_REDIS_URL must look like'],
    ['a password beside a URL', { BATON_REDIS_URL: 'redis://a:1', BATON_REDIS_PASSWORD: 'x' }, 'carries its own'],
    ['sentinels without a name', { BATON_REDIS_SENTINELS: 'a:26379' }, 'needs BATON_REDIS_SENTINEL_NAME'],
    ['a name without sentinels', { BATON_REDIS_SENTINEL_NAME: 'baton' }, 'without BATON_REDIS_SENTINELS'],
    ['a node without a port', { BATON_REDIS_CLUSTER: '127.0.0.1' }, 'BATON_REDIS_CLUSTER takes host:port'],
    ['a port out of range', { BATON_REDIS_CLUSTER: '127.0.0.1:70000' }, 'got "127.0.0.1:70000"'],
    [
      'TLS that is not 0 or 1',
      { BATON_REDIS_CLUSTER: 'a:1', BATON_REDIS_TLS: 'yes' },
      'BATON_REDIS_TLS must be 1 or 0',
    ],
    ['a password and nothing to use it on', { BATON_REDIS_PASSWORD: 'x' }, 'go with BATON_REDIS_SENTINELS'],
  ];
  for (const [label, env, message] of wrong) {
    it(`refuses ${label}, naming the setting`, () => {
      expect(() => redisFromEnvironment(env))
        .to.throw(ConfigurationError)
        .with.property('message')
        .that.include(message);
    });
  }
});
