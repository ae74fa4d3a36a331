/**
 * One Baton in this process on one Redis set-up, wired as `baton serve` wires BATON_REDIS_URL,
 * BATON_REDIS_SENTINELS or BATON_REDIS_CLUSTER (server/settings/task-options.ts and
 * security-options.ts): the task store, the BullMQ queue and the single-use guard all on the same
 * target with their default key prefixes, serving the two bench tools on loopback. Only the
 * per-caller quotas are lifted: one bench client makes thousands of tasks and claims.
 */
import { createServer } from '../../server/create-server.js';
import {
  BullMqTaskQueue,
  KeyRing,
  RedisReplayGuard,
  RedisTaskStore,
  silentLogger,
  type RedisTarget,
} from '../../server/engine/index.js';
import { oneStepTaskTool } from '../tools/one-step-task.js';
import { singleUseConfirmTool } from '../tools/single-use-confirm.js';

export interface HaServer {
  url: string;
  close(): Promise<void>;
}

export interface HaServerOptions {
  /** Replicas each single-use claim must reach (BATON_REDIS_WAIT_REPLICAS); the guard's default when absent. */
  waitReplicas?: number | undefined;
}

const UNLIMITED = Number.MAX_SAFE_INTEGER;

export async function startHaServer(
  target: RedisTarget,
  keyRing: KeyRing,
  options: HaServerOptions = {},
): Promise<HaServer> {
  const guard = new RedisReplayGuard({
    redis: target,
    ...(options.waitReplicas === undefined ? {} : { replicas: options.waitReplicas }),
  });
  const baton = createServer({
    tools: [oneStepTaskTool, singleUseConfirmTool],
    keyRing,
    logger: silentLogger,
    docs: false,
    replayGuard: guard,
    singleUseQuota: UNLIMITED,
    longLived: { listen_streams: { perClient: 1024, perInstance: 1024 } },
    tasks: {
      store: new RedisTaskStore({ redis: target, keyRing, logger: silentLogger }),
      queue: new BullMqTaskQueue({ redis: target }),
      quotas: { liveTasksPerClient: UNLIMITED, bytesPerClient: UNLIMITED },
    },
  });
  const { server, url } = await baton.listen(0, '127.0.0.1');
  return {
    url,
    async close() {
      server.closeAllConnections();
      server.close();
      await baton.close();
      await guard.close();
    },
  };
}
