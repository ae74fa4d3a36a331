/** The Redis connection factory's pure parts: prefixes in a cluster, naming, and what counts as "away for now". */
import { expect } from 'chai';
import {
  CLUSTER_QUEUE_PREFIX,
  clusterPrefix,
  describeRedisTarget,
  isRedisUnavailable,
} from '../../../server/engine/redis-target.js';

const cluster = { cluster: [{ host: '127.0.0.1', port: 7000 }] };

/** A key's slot as the Redis Cluster specification defines it: CRC16 (XMODEM) of its hash tag, mod 16384. */
function calculateSlot(key: string): number {
  const tag = /\{([^}]+)\}/.exec(key)?.[1] ?? key;
  let crc = 0;
  for (const byte of Buffer.from(tag)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16384;
}

describe('Redis targets', () => {
  it('hash-tags a prefix in a cluster only, so keys already in one Redis stay where they are', () => {
    expect(clusterPrefix('redis://r:6379', 'baton:task:')).to.equal('baton:task:');
    expect(clusterPrefix(cluster, 'baton:task:')).to.equal('baton:{task}:');
    expect(clusterPrefix(cluster, 'baton:state:')).to.equal('baton:{state}:');
    expect(clusterPrefix(cluster, 'app:{mine}:')).to.equal('app:{mine}:');
  });

  it('puts the queue, the task records and the claims on three masters of an even three-way split', () => {
    // `redis-cli --cluster create` with three masters: slots 0-5460, 5461-10922, 10923-16383.
    expect(calculateSlot('123456789')).to.equal(0x31c3 % 16384); // the specification's check value
    const master = (key: string) => Math.floor(calculateSlot(key) / (16384 / 3));
    expect(master(`${CLUSTER_QUEUE_PREFIX}:baton-tasks:wait`)).to.equal(0);
    expect(master(`${clusterPrefix(cluster, 'baton:task:')}some-task`)).to.equal(1);
    expect(master(`${clusterPrefix(cluster, 'baton:state:')}some-claim`)).to.equal(2);
  });

  it('names a target without its credentials', () => {
    expect(describeRedisTarget('redis://user:secret@r.example:6380/0')).to.equal('redis://r.example:6380');
    expect(describeRedisTarget({ sentinels: [{ host: 's', port: 26379 }], name: 'baton', password: 'x' })).to.equal(
      'sentinel master "baton" via s:26379',
    );
    expect(describeRedisTarget(cluster)).to.equal('cluster 127.0.0.1:7000');
  });

  it('tells an outage (retried) from a mistake (failed)', () => {
    const named = (name: string, message: string) => Object.assign(new Error(message), { name });
    expect(
      isRedisUnavailable(named('MaxRetriesPerRequestError', 'Reached the max retries per request limit')),
    ).to.equal(true);
    expect(isRedisUnavailable(new Error("READONLY You can't write against a read only replica."))).to.equal(true);
    expect(isRedisUnavailable(new Error('connect ECONNREFUSED 127.0.0.1:6379'))).to.equal(true);
    expect(isRedisUnavailable(new Error('CLUSTERDOWN The cluster is down'))).to.equal(true);
    expect(isRedisUnavailable(new Error('ERR wrong number of arguments for command'))).to.equal(false);
    expect(isRedisUnavailable(new TypeError("Cannot read properties of undefined (reading 'x')"))).to.equal(false);
    expect(isRedisUnavailable('READONLY')).to.equal(false);
  });
});
