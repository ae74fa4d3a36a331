import { expect } from 'chai';
import { limitsFromEnvironment } from '../../server/settings/limit-options.js';
import { ConfigurationError } from '../../server/engine/index.js';

describe('limitsFromEnvironment', () => {
  it('leaves every limit to its default when nothing is set', () => {
    expect(limitsFromEnvironment({})).to.deep.equal({
      longLived: { listen_streams: {}, waiting_calls: {} },
      listen: {},
      tasks: { quotas: {} },
      legacy: {},
      taskStore: {},
    });
  });

  it('reads the budgets, quotas and session limits', () => {
    const limits = limitsFromEnvironment({
      BATON_MAX_LISTEN_STREAMS: '100',
      BATON_MAX_LISTEN_STREAMS_PER_CLIENT: '4',
      BATON_MAX_WAITING_CALLS: '50',
      BATON_MAX_WAITING_CALLS_PER_CLIENT: '2',
      BATON_LISTEN_MAX_LIFETIME_MS: '60000',
      BATON_LISTEN_KEEP_ALIVE_MS: '1000',
      BATON_LISTEN_MAX_TASK_IDS: '8',
      BATON_MAX_LIVE_TASKS_PER_CLIENT: '10',
      BATON_MAX_TASK_BYTES_PER_CLIENT: '1000000',
      BATON_MAX_TASK_BYTES: '100000',
      BATON_MAX_TASK_STORE_BYTES: '5000000',
      BATON_TASK_REDIS_MEMORY_PERCENT: '70',
      BATON_MAX_SESSIONS_PER_CLIENT: '3',
      BATON_MAX_SUBSCRIPTIONS_PER_SESSION: '5',
      BATON_MAX_CONCURRENT_PER_CLIENT: '16',
    });
    expect(limits).to.deep.equal({
      maxConcurrentRequestsPerClient: 16,
      longLived: {
        listen_streams: { perInstance: 100, perClient: 4 },
        waiting_calls: { perInstance: 50, perClient: 2 },
      },
      listen: { keepAliveMs: 1000, maxLifetimeMs: 60000, maxTaskIds: 8 },
      tasks: { quotas: { liveTasksPerClient: 10, bytesPerClient: 1000000, recordBytes: 100000 } },
      legacy: { maxSessionsPerClient: 3, maxSubscriptionsPerSession: 5 },
      taskStore: { memoryBytes: 5000000, redisMemoryPercent: 70 },
    });
  });

  it('stops start-up on a value it cannot use, naming the setting', () => {
    expect(() => limitsFromEnvironment({ BATON_MAX_LIVE_TASKS_PER_CLIENT: 'many' })).to.throw(
      ConfigurationError,
      /BATON_MAX_LIVE_TASKS_PER_CLIENT/,
    );
    expect(() => limitsFromEnvironment({ BATON_TASK_REDIS_MEMORY_PERCENT: '150' })).to.throw(
      ConfigurationError,
      /percent/,
    );
  });
});
