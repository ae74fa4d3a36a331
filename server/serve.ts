/**
 * `serve`: a Baton server listening over HTTP in one call, for a project that serves its own
 * tools. It behaves as `baton serve` does, because `baton serve` (and `baton dev`) run through it:
 * the same settings from the environment (docs/configuration.md: BATON_KEYS, PORT, HOST, tokens,
 * Host lists, limits, Redis), each overridden by the option of the same meaning; the same loud
 * warnings (no key: a development key; tasks in memory; an open Host list); a `listening` line.
 * `createServer` is the same server with nothing read from the environment and nothing printed.
 */
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import {
  configFromEnvironment,
  DEV_KEY_WARNING,
  TASKS_IN_MEMORY_WARNING,
  type EnvironmentConfig,
} from './settings/environment-config.js';
import { checkSingleUseGuard, openHostWarning, securityOptions } from './settings/security-options.js';
import { singleUseWarning } from './settings/single-use-warning.js';
import { taskOptions } from './settings/task-options.js';
import { consoleOption } from './settings/console-options.js';
import { createServer, type BatonOptions, type BatonServer } from './create-server.js';
import { definedFields, stderrLogger, type KeyRing, type Logger } from './engine/index.js';
import { applyV8Settings, appliedV8Settings } from './v8-settings.js';
import { startTelemetrySdk, type TelemetrySdk } from './settings/telemetry-sdk.js';

/** `createServer`'s options, each optional one defaulting to its environment setting, plus the port. */
export interface ServeOptions extends Omit<BatonOptions, 'keyRing'> {
  /** The key ring (default: BATON_KEYS, else an ephemeral development key, with a loud warning). */
  keyRing?: KeyRing;
  /** The port to listen on (0: any free port; default PORT, else 3000). */
  port?: number;
  /** Where the settings are read from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

/** A listening server: its endpoint URL, the HTTP server, the Baton server, and `close`. */
export interface Serving {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  url: string;
  server: Server;
  baton: BatonServer;
  /** The OpenTelemetry SDK started from OTEL_* or BATON_METRICS_PORT, if any (settings/telemetry-sdk.ts). */
  telemetry?: TelemetrySdk;
  close(): Promise<void>;
}

/**
 * A warning said at start-up: as the banner on stderr, or through the logger the caller gave
 * (one `warn` event), so an application that routes its logs gets them there.
 */
function warner(logger: Logger | undefined): (event: string, banner: string) => void {
  if (!logger) return (_event, banner) => void process.stderr.write(`${banner}\n`);
  return (event, banner) =>
    logger.warn(event, {
      message: banner
        .split('\n')
        .map((line) => line.replace(/^#\s*|\s*#$/g, '').trim())
        .filter((line) => line && !/^#+$/.test(line))
        .join(' '),
    });
}

/**
 * Serves tools over HTTP in one call, as `baton serve` does: settings read from the environment
 * (docs/configuration.md), each overridden by the option of the same meaning, the same start-up
 * warnings, and a `listening` line. Resolves once it listens.
 * @example
 * ```ts
 * import { serve } from 'baton-mcp/server';
 * import { tools } from './tools/index.js';
 *
 * // BATON_KEYS, PORT, HOST, BATON_TOKENS, … are read as `baton serve` reads them; options win.
 * const serving = await serve({ tools, port: 3000 });
 * console.log(`MCP endpoint: ${serving.url}`);
 * process.once('SIGTERM', () => void serving.close());
 * ```
 */
export async function serve(options: ServeOptions): Promise<Serving> {
  return serveWithConfig(configFromEnvironment(options.env ?? process.env), options);
}

/** `serve` with the environment already read (the CLI reads it once, for its own use too). */
export async function serveWithConfig(config: EnvironmentConfig, options: ServeOptions): Promise<Serving> {
  // serve() runs a server process of its own: it runs with Baton's V8 settings (v8-settings.ts).
  applyV8Settings();
  const { port: givenPort, env: _env, ...given } = options;
  const warn = warner(options.logger);
  const logger = options.logger ?? stderrLogger;
  const keyRing = options.keyRing ?? config.keyRing;
  if (keyRing === config.keyRing && config.devKey) warn('development_key', DEV_KEY_WARNING);
  const host = options.host ?? config.host;
  const effective: EnvironmentConfig = { ...config, host };
  if (options.replayGuard) delete effective.redis;
  if (!options.originPolicy && !cluster.isWorker) {
    const openHost = openHostWarning(effective);
    if (openHost) warn('open_host_list', openHost);
  }
  const security = securityOptions(effective);
  const replayGuard = options.replayGuard ?? security.replayGuard;
  await checkSingleUseGuard({ ...security, ...definedFields({ replayGuard: options.replayGuard }) }, logger);
  // Said once per cluster (by its first worker), like the other start-up warnings.
  const perInstance = singleUseWarning(options.tools, {
    shared: replayGuard !== undefined,
    oneOfMany: cluster.isWorker || !config.devKey,
  });
  if (perInstance && (!cluster.isWorker || cluster.worker?.id === 1)) warn('single_use_per_instance', perInstance);
  // Before the server is built: its instruments bind to the meter provider registered then.
  const sdk = options.telemetry
    ? undefined
    : await startTelemetrySdk(config.telemetry, options.env ?? process.env, undefined, warn);
  const tasks = options.tasks
    ? { tasks: options.tasks }
    : taskOptions(config, options.tools, () => warn('tasks_in_memory', TASKS_IN_MEMORY_WARNING));
  const operatorConsole = consoleOption(config.console, {
    tokens: Boolean(config.tokens),
    oauth: Boolean(config.oauth),
  });
  const baton = createServer({
    ...security,
    ...tasks,
    ...operatorConsole,
    ...definedFields({ startOn: config.startOn }),
    // Baton's metrics aggregated by Baton, for the reader the SDK was started with.
    ...(sdk?.meter ? { telemetry: { meter: sdk.meter } } : {}),
    ...definedFields(given),
    tools: options.tools,
    keyRing,
    host,
    logger,
  });
  const { server, url } = await baton.listen(givenPort ?? config.port, host);
  logger.info('listening', {
    url,
    instance: baton.instanceId,
    tools: baton.registry.list().map((tool) => tool.name),
    v8: appliedV8Settings(),
    ...(sdk?.metricsUrl ? { metrics: sdk.metricsUrl } : {}),
    ...(config.telemetry.traces ? { traces: 'OTEL_*' } : {}),
  });
  return {
    url,
    server,
    baton,
    ...(sdk ? { telemetry: sdk } : {}),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await baton.close();
      await sdk?.shutdown();
    },
  };
}
