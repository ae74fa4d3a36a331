/**
 * `baton dev`: serves the tools over HTTP exactly as `baton serve` does (through `serve()`: the
 * same settings, tokens, Host lists, limits and warnings) and reloads them on every save, in one
 * process (no watcher parent, no compile step), so Ctrl-C or SIGTERM stops everything at once.
 *
 * The project's folder is watched with chokidar: `fs.watch(dir, { recursive: true })` loses a
 * file once an editor saves it by rename-and-replace (atomic save, `sed -i`) on Node 20 and 22,
 * and a dev loop that silently serves stale code is worse than none. Each change (edit, atomic
 * save, truncate-and-write, new file, deleted file) reloads the tools module anew
 * (tools-module.ts) and logs which file caused it; the served list is swapped only if it passes
 * every start-up check. A reload that fails says so loudly, naming the file and line, and the
 * last good list keeps serving. Clients that listen for `toolsListChanged` hear of each change.
 */
import { relative, resolve } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { configFromEnvironment } from '../settings/environment-config.js';
import { ConfigurationError, stderrLogger, type LiveToolRegistry, type ToolDefinition } from '../engine/index.js';
import { PACKAGE_ROOT } from '../package-root.js';
import { serveWithConfig } from '../serve.js';
import { createMemoryVault } from '../../machines/index.js';
import { examplesVaultPage } from './examples-vault-page.js';
import { editorPageExtras } from './editor/editor-panel.js';
import { editorRouter } from './editor/editor-routes.js';
import { ToolEditor } from './editor/tool-editor.js';
import {
  describeSource,
  examplesModulePath,
  examplesNotice,
  findToolsSource,
  loadToolsModule,
} from './tools-module.js';

const RELOAD_DELAY_MS = 100;
/** Folders whose files never change the tools: dependencies, builds, generated docs, VCS. */
const IGNORED = /(^|[/\\])(node_modules|dist|\.git|docs|coverage)([/\\]|$)/;
/** The diagram editor's candidates (editor/tool-editor.ts): checked before they replace a file, never served. */
const CANDIDATE = /\.baton-edit-[^/\\]*$/;
const SOURCE_FILE = /\.(ts|mts|cts|js|mjs|cjs|json)$/;

export interface DevCommandOptions {
  tools?: string;
  /** The diagram editor on the tool pages (on by default; `BATON_EDITOR=off` turns it off). */
  editor?: boolean;
}

/** Where a failed reload went wrong: the first `file:line:col` under the project, if any. */
export function failureLocation(error: unknown, root: string): string | undefined {
  let text = `${(error as Error)?.message ?? ''}\n${(error as Error)?.stack ?? ''}`;
  try {
    // A CommonJS module's frames name it URL-encoded (tsx: `data:…?filePath=%2F…`).
    text = decodeURIComponent(text);
  } catch {
    // Not URL-encoded after all: read it as it is.
  }
  for (const [, file, line, column] of text.matchAll(/(?:file:\/\/)?(\/[^\s():?]+)(?:\?[^\s:)]*)?:(\d+):(\d+)/g)) {
    if (file!.startsWith(root) && !IGNORED.test(relative(root, file!))) {
      return `${relative(process.cwd(), file!) || file}:${line}:${column}`;
    }
  }
  return undefined;
}

/**
 * The message without the place the banner's `at` line already names: esbuild starts its error
 * with the absolute `file:line:col: `, which printed the one problem's place twice.
 */
function withoutLocation(message: string, at: string | undefined): string {
  if (!at) return message;
  const absolute = resolve(process.cwd(), at);
  return message.replaceAll(`${absolute}: `, '').replaceAll(`${at}: `, '');
}

function failureBanner(changed: string, error: unknown, root: string): string {
  const at = failureLocation(error, root);
  const message = withoutLocation(
    error instanceof ConfigurationError ? error.message : ((error as Error)?.message ?? String(error)),
    at,
  );
  return [
    '',
    '################################################################################',
    `#  baton dev: RELOAD FAILED after ${changed}`,
    '#  Still serving the previous tools. Fix the error below and save again.',
    '################################################################################',
    ...(at ? [`at ${at}`] : []),
    message,
    '',
  ].join('\n');
}

export async function devCommand(options: DevCommandOptions): Promise<number> {
  const config = configFromEnvironment();
  // The console is always there in development; without tokens, for callers on loopback.
  config.console = { ...config.console, enabled: true, loopback: true };
  const source = findToolsSource(options.tools);
  const notice = examplesNotice(source);
  if (notice) process.stderr.write(`${notice}\n`);
  const modulePath = source.module ?? examplesModulePath();
  // The project's whole folder (a tool may import from anywhere in it); here, the whole checkout.
  const watched = source.module ? source.root : PACKAGE_ROOT;
  const vault = createMemoryVault();
  const examples = { publicUrl: config.publicUrl, vault };
  const first = await loadToolsModule(modulePath, examples);

  const watcher: FSWatcher = watch(watched, {
    ignoreInitial: true,
    ignored: (path, stats) =>
      IGNORED.test(relative(watched, path)) ||
      CANDIDATE.test(path) ||
      (stats?.isFile() === true && !SOURCE_FILE.test(path)),
  });
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));

  // The connect-payments example's page, where the examples are served, authenticating as the endpoint does.
  const vaultPage = source.module ? {} : examplesVaultPage(config, vault);
  // The editor needs the served registry, which exists once the server does; until then (never
  // in practice: nothing listens yet) its routes answer 503.
  let editor: ToolEditor | undefined;
  const editing =
    (options.editor ?? process.env.BATON_EDITOR !== 'off')
      ? { router: editorRouter({ editor: () => editor, logger: stderrLogger }) }
      : undefined;
  const serving = await serveWithConfig(config, {
    ...first,
    ...vaultPage,
    liveTools: true,
    keyRing: config.keyRing,
    routers: [...(vaultPage.routers ?? []), ...(editing ? [editing.router] : [])],
    ...(editing ? { toolPageExtras: editorPageExtras } : {}),
  });
  const registry = serving.baton.registry as LiveToolRegistry;
  if (editing) editor = new ToolEditor({ root: watched, modulePath, examples, registry });
  const names = (tools: ToolDefinition[]) => tools.map((tool) => tool.name).sort();
  stderrLogger.info('watching', { folder: watched, tools: describeSource(source) });

  const changes = new Map<string, string>();
  let timer: NodeJS.Timeout | undefined;
  let reloading = Promise.resolve();
  const reload = async () => {
    const changed = [...changes].map(([file, event]) => `${relative(process.cwd(), file) || file} (${event})`);
    changes.clear();
    if (changed.length === 0) return;
    const cause = changed.join(', ');
    try {
      const { tools } = await loadToolsModule(modulePath, examples);
      const before = JSON.stringify(names(registry.list()));
      registry.replace(tools);
      stderrLogger.info('reloaded', {
        changed: cause,
        tools: names(tools),
        listChanged: before !== JSON.stringify(names(tools)),
      });
    } catch (error) {
      // The last good list stays served; the author sees what to fix, and where.
      stderrLogger.error('reload_failed', { changed: cause, at: failureLocation(error, watched) });
      process.stderr.write(failureBanner(cause, error, watched));
    }
  };
  watcher.on('all', (event, path) => {
    if (event === 'addDir' || event === 'unlinkDir' || !SOURCE_FILE.test(path)) return;
    const kind = event === 'add' ? 'created' : event === 'unlink' ? 'deleted' : 'changed';
    // A file created and then written in one burst was created.
    if (!(kind === 'changed' && changes.get(path) === 'created')) changes.set(path, kind);
    clearTimeout(timer);
    timer = setTimeout(() => (reloading = reloading.then(reload)), RELOAD_DELAY_MS);
  });
  watcher.on('error', (error) => stderrLogger.error('watch_failed', { error: String(error) }));

  return new Promise<number>((resolve) => {
    const stop = () => {
      clearTimeout(timer);
      void watcher.close().finally(() => {
        serving.server.closeAllConnections();
        serving.server.close(() => void serving.baton.close().finally(() => resolve(0)));
      });
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
