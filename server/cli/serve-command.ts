/**
 * `baton serve`: the named tools (tools-module.ts) over HTTP, through `serve()` so the command and
 * the library function cannot differ; optionally as a cluster of workers sharing the port.
 */
import cluster from 'node:cluster';
import { configFromEnvironment, DEV_KEY_WARNING } from '../settings/environment-config.js';
import { openHostWarning } from '../settings/security-options.js';
import { ConfigurationError, stderrLogger } from '../engine/index.js';
import { serveWithConfig } from '../serve.js';
import { conformanceAsked, servedCatalogue } from './served-catalogue.js';
import { describeSource, examplesNotice, findToolsSource } from './tools-module.js';
import { runWorkerCluster, workerCount } from './worker-cluster.js';
import { createMemoryVault } from '../../machines/index.js';
import { examplesVaultPage } from './examples-vault-page.js';

export interface ServeCommandOptions {
  tools?: string;
  conformance?: boolean;
  workers?: string;
  /** The operator's console at /console (or BATON_CONSOLE=1). */
  console?: boolean;
}

export async function serveCommand(options: ServeCommandOptions): Promise<number> {
  const config = configFromEnvironment();
  if (options.console) config.console = { ...config.console, enabled: true };
  const source = findToolsSource(options.tools);
  const workers = workerCount(options.workers);
  const notice = examplesNotice(source);
  if (notice && !cluster.isWorker) process.stderr.write(`${notice}\n`);
  if (workers !== undefined && config.telemetry.metricsPort !== undefined) {
    // Workers share listening sockets (node:cluster): each scrape would reach one worker at random.
    throw new ConfigurationError(
      'BATON_METRICS_PORT cannot be used with --workers: each worker has its own metrics. Run one instance per process (a fleet), or push metrics with OTEL_METRICS_EXPORTER=otlp.',
    );
  }
  if (workers !== undefined && cluster.isPrimary) {
    // The workers share the primary's key (worker-cluster.ts): the warning is said here, once.
    if (config.devKey) process.stderr.write(`${DEV_KEY_WARNING}\n`);
    const openHost = openHostWarning(config);
    if (openHost) process.stderr.write(`${openHost}\n`);
    return runWorkerCluster({ workers, logger: stderrLogger });
  }
  stderrLogger.info('tools', { from: describeSource(source), namedBy: source.namedBy ?? 'none (the examples)' });
  const vault = createMemoryVault();
  const catalogue = await servedCatalogue(
    source,
    { publicUrl: config.publicUrl, vault },
    conformanceAsked(options.conformance),
  );
  const serving = await serveWithConfig(config, {
    ...catalogue,
    keyRing: config.keyRing,
    // The connect-payments example's page, where the examples are served, authenticating as the endpoint does.
    ...(source.module ? {} : examplesVaultPage(config, vault)),
  });
  const { server, baton, telemetry } = serving;
  // Running task steps are stopped (their jobs move to another instance) before the exit; spans
  // still buffered are sent.
  const stop = () =>
    server.close(
      () =>
        void baton
          .close()
          .then(() => telemetry?.shutdown())
          .finally(() => process.exit(0)),
    );
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return -1;
}
