/**
 * `baton dev`: serves the tools over HTTP and reloads them when a file changes, in one process
 * (no watcher parent, no compile step), so Ctrl-C or SIGTERM stops everything at once. A reload
 * imports the tools module anew (tools-module.ts) and swaps the served list only if it passes
 * every start-up check; otherwise it prints the problems and keeps serving the last good list.
 * Clients that listen for `toolsListChanged` hear of each change (subscriptions/listen).
 */
import { watch, type FSWatcher } from 'node:fs';
import { dirname } from 'node:path';
import { configFromEnvironment, DEV_KEY_WARNING } from './config.js';
import { createServer } from '../create-server.js';
import { ConfigurationError, stderrLogger, type LiveToolRegistry, type ToolDefinition } from '../engine/index.js';
import { pageVisitor } from '../http/index.js';
import { PACKAGE_ROOT } from '../package-root.js';
import { createMemoryVault, vaultPageRouter } from '../../machines/index.js';
import { DEFAULT_TOOLS_MODULE, loadTools, toolsModulePath } from './tools-module.js';

const RELOAD_DELAY_MS = 100;
const IGNORED = /(^|[/\\])(node_modules|dist|\.git|docs)([/\\]|$)/;

export async function devCommand(args: string[]): Promise<number> {
  const config = configFromEnvironment();
  if (config.devKey) process.stderr.write(`${DEV_KEY_WARNING}\n`);
  const modulePath = toolsModulePath(args);
  // The repository's own list: watch the whole checkout (machines/ and the engine they import).
  const watched = modulePath === DEFAULT_TOOLS_MODULE ? PACKAGE_ROOT : dirname(modulePath);
  const vault = createMemoryVault();
  const examples = { publicUrl: config.publicUrl, vault };
  const baton = createServer({
    tools: await loadTools(modulePath, examples, true),
    liveTools: true,
    keyRing: config.keyRing,
    host: config.host,
    logger: stderrLogger,
    // The connect-payments example's page, when the examples are served.
    routers:
      modulePath === DEFAULT_TOOLS_MODULE
        ? [vaultPageRouter(vault, { keyRing: config.keyRing, identify: pageVisitor(undefined) })]
        : [],
  });
  const registry = baton.registry as LiveToolRegistry;
  const { server, url } = await baton.listen(config.port, config.host);
  const names = (tools: ToolDefinition[]) => tools.map((tool) => tool.name).sort();
  stderrLogger.info('listening', { url, watching: watched, tools: names(registry.list()) });

  let timer: NodeJS.Timeout | undefined;
  let reloading = Promise.resolve();
  const reload = async () => {
    try {
      const tools = await loadTools(modulePath, examples, true);
      const before = JSON.stringify(names(registry.list()));
      registry.replace(tools);
      stderrLogger.info('reloaded', { tools: names(tools), listChanged: before !== JSON.stringify(names(tools)) });
    } catch (error) {
      // The last good list stays served; the author sees what to fix.
      const message = error instanceof ConfigurationError ? error.message : ((error as Error)?.stack ?? String(error));
      process.stderr.write(`baton dev: not reloaded, still serving the previous tools:\n${message}\n`);
    }
  };
  const watcher: FSWatcher = watch(watched, { recursive: true }, (_event, file) => {
    if (!file || IGNORED.test(file) || !/\.(ts|js|mjs|json)$/.test(file)) return;
    clearTimeout(timer);
    timer = setTimeout(() => (reloading = reloading.then(reload)), RELOAD_DELAY_MS);
  });

  return new Promise<number>((resolve) => {
    const stop = () => {
      watcher.close();
      clearTimeout(timer);
      server.closeAllConnections();
      server.close(() => void baton.close().finally(() => resolve(0)));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
