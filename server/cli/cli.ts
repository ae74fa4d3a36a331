/**
 * The `baton` command line: `serve` (HTTP, optionally as a cluster of workers), `stdio`, `keygen`,
 * `docs` and `diagram`. Logs go to stderr; stdout carries only what a command prints.
 */
import cluster from 'node:cluster';
import { configFromEnvironment, DEV_KEY_WARNING } from './config.js';
import { createServer } from '../create-server.js';
import { checkSingleUseGuard, openHostWarning, securityOptions } from './security-options.js';
import { ConfigurationError, generateKeyEntry, stderrLogger } from '../engine/index.js';
import { pageVisitor } from '../http/index.js';
import { servedCatalogue } from './served-catalogue.js';
import { stdioCommand } from './stdio-command.js';
import { taskOptions } from './task-options.js';
import { runWorkerCluster, workerCountFrom } from './worker-cluster.js';
import { createMemoryVault, vaultPageRouter } from '../../machines/index.js';
import { applyV8Settings, appliedV8Settings } from '../v8-settings.js';

const USAGE = `Usage: baton <command>

Commands:
  serve     Serve the example tools over HTTP (settings: docs/configuration.md)
            --conformance  also serve the conformance-suite fixtures (or BATON_CONFORMANCE=1)
            --workers N    fork N worker processes sharing the port (node:cluster)
            --tools FILE   serve a project's tools module instead (it exports \`tools\`)
  stdio     Serve the same tools over stdin/stdout (BATON_PRINCIPAL names the user; --conformance)
  keygen    Print a new key entry for BATON_KEYS ("kid:base64key")
  docs      Write docs/tools/*.md from the machines (--check: fail if they differ; --out DIR; --conformance)
  diagram   Print a tool's Mermaid state diagram: baton diagram <tool> (--sequence: its example conversation)
  call      Walk a tool's flow in the terminal: baton call <tool> [--url URL] [--args JSON] [--answers JSON]
  dev       Serve over HTTP and reload the tools when a file changes, in one process (--tools FILE)
  new       Write a tool, its test and its registration: baton new <tool> (--project DIR: a new project)
`;

async function serve(args: string[]): Promise<void> {
  const config = configFromEnvironment();
  if (config.devKey) process.stderr.write(`${DEV_KEY_WARNING}\n`);
  const openHost = openHostWarning(config);
  if (openHost && !cluster.isWorker) process.stderr.write(`${openHost}\n`);
  const workers = workerCountFrom(args);
  if (workers !== undefined && cluster.isPrimary) {
    process.exit(await runWorkerCluster({ workers, logger: stderrLogger }));
  }
  const vault = createMemoryVault();
  const catalogue = servedCatalogue(args, { publicUrl: config.publicUrl, vault });
  if (args.includes('--tools'))
    catalogue.tools = await (await import('./tools-module.js')).toolsFrom(args, { publicUrl: config.publicUrl, vault });
  const security = securityOptions(config);
  await checkSingleUseGuard(security, stderrLogger);
  const baton = createServer({
    ...catalogue,
    keyRing: config.keyRing,
    host: config.host,
    routers: [
      vaultPageRouter(vault, {
        keyRing: config.keyRing,
        identify: pageVisitor(security.authenticate),
        asksForToken: Boolean(security.authenticate),
      }),
    ],
    ...security,
    ...taskOptions(config, catalogue.tools),
  });
  const { server, url } = await baton.listen(config.port, config.host);
  stderrLogger.info('listening', {
    url,
    instance: baton.instanceId,
    tools: baton.registry.list().map((t) => t.name),
    v8: appliedV8Settings(),
  });
  // Running task steps are stopped (their jobs move to another instance) before the exit.
  const stop = () => server.close(() => void baton.close().finally(() => process.exit(0)));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function main(argv: string[]): Promise<number> {
  applyV8Settings();
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      await serve(rest);
      return -1;
    case 'stdio':
      await stdioCommand(rest);
      return -1;
    case 'keygen':
      process.stdout.write(`${generateKeyEntry(rest[0])}\n`);
      return 0;
    case 'docs':
      // Loaded on demand: serving never needs the docs generator's imports.
      return (await import('./docs-command.js')).docsCommand(rest);
    case 'diagram':
      return (await import('./docs-command.js')).diagramCommand(rest);
    case 'call':
      return (await import('./call-command.js')).callCommand(rest);
    case 'dev':
      return (await import('./dev-command.js')).devCommand(rest);
    case 'new':
      return (await import('./new-command.js')).newCommand(rest);
    case undefined:
    case 'help':
    case '--help':
      process.stdout.write(USAGE);
      return 0;
    default:
      process.stderr.write(`Unknown command "${command}".\n\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    if (error instanceof ConfigurationError) {
      process.stderr.write(`baton: ${error.message}\n`);
      process.exit(78);
    }
    process.stderr.write(`baton: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  },
);
