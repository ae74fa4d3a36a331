/**
 * `GET /console`: the operator's console (docs/console.md): the task list, a task's page with its
 * diagram, the stuck view, and cancel. Every route first asks who is there (operator-access.ts)
 * and answers anyone but an operator exactly as an unknown path (404), assets included. The pages
 * get the docs pages' policy (scripts only from this server, nothing framed), forms may post only
 * here, and a cancel must come from this very origin (Origin, Sec-Fetch-Site) with the page's
 * token (console-csrf.ts). The page code is loaded on the first console request, so a server that
 * is never asked for its console starts and answers as one without it.
 */
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { AnyStateMachine } from 'xstate';
import {
  DEFAULT_STUCK_THRESHOLDS,
  isTerminalStatus,
  TaskQueryError,
  type KeyRing,
  type Logger,
  type OperatorTasks,
  type RevealedValues,
  type TaskDetail,
  type ToolDefinition,
} from '../engine/index.js';
import type { TaskStatus } from '../engine/tasks/index.js';
import type { Principal } from '../protocol/index.js';
import { ConsoleCsrf } from './console-csrf.js';
import { replayRoutes } from './console-replay-routes.js';
import { ConsoleEvents, type ConsoleEventsOptions } from './console-events.js';
import { diagramAssetRoutes } from './diagram-assets.js';
import type { OperatorCheck } from './operator-access.js';
import { readBody } from './read-body.js';

export interface ConsoleRoutesOptions {
  /** Every principal's tasks (TaskManager.operator); undefined when no served tool runs as a task. */
  tasks: OperatorTasks | undefined;
  /** The tools served now (a function: `baton dev` reloads them), for diagrams and the tool filter. */
  tools: () => ToolDefinition[];
  versionOf: (machine: AnyStateMachine) => string;
  access: OperatorCheck;
  keyRing: KeyRing;
  logger: Logger;
  /** Where the console is mounted (`/console`). */
  base?: string;
  clock?: () => number;
  /** Limits and timing of the live-update streams (console-events.ts). */
  events?: Omit<ConsoleEventsOptions, 'listen'>;
  /**
   * `baton dev`: a task page offers a form per pending question, answered as tasks/update does.
   * Anywhere else the answer route is a 404.
   */
  dev?: boolean;
}

const POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  // Mermaid draws with inline <style> in its SVG.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  // The live updates: the event stream and the page fetched again, from this server only.
  "connect-src 'self'",
  "font-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const STATUSES = new Set<string>(['working', 'input_required', 'completed', 'cancelled', 'failed']);
const MAX_FORM_BYTES = 4096;

/** A query parameter as one short string, or undefined. */
function param(ctx: Context, name: string, maxLength = 200): string | undefined {
  const value = ctx.query[name];
  return typeof value === 'string' && value.length > 0 && value.length <= maxLength ? value : undefined;
}

function minutes(ctx: Context, name: string, fallbackMs: number): number {
  const value = Number(param(ctx, name, 6));
  return Number.isSafeInteger(value) && value >= 1 && value <= 100_000 ? value : Math.round(fallbackMs / 60_000);
}

export function sendPage(ctx: Context, html: string): void {
  ctx.set('Content-Security-Policy', POLICY);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('X-Frame-Options', 'DENY');
  // Not no-referrer: a browser then sends `Origin: null` with the cancel form, which must name this origin.
  ctx.set('Referrer-Policy', 'same-origin');
  // What operators see of every caller's tasks is kept by no cache.
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'html';
  ctx.body = html;
}

export function refuse(ctx: Context, status: number, text: string): void {
  ctx.status = status;
  ctx.type = 'text';
  ctx.body = text;
}

/** Whether a POST comes from a page of this very origin (not merely an allowed one). */
export function sameOrigin(ctx: Context): boolean {
  const site = ctx.get('sec-fetch-site');
  if (site && site !== 'same-origin') return false;
  const origin = ctx.get('origin');
  if (!origin) return false;
  try {
    return new URL(origin).host.toLowerCase() === ctx.get('host').toLowerCase();
  } catch {
    return false;
  }
}

export function consoleRouter(options: ConsoleRoutesOptions): Router {
  const base = (options.base ?? '/console').replace(/\/$/, '');
  const clock = options.clock ?? Date.now;
  const csrf = new ConsoleCsrf(options.keyRing, clock);
  const router = new Router();
  let pages: Promise<typeof import('../console/index.js')> | undefined;
  const load = () => (pages ??= import('../console/index.js'));
  let style: Promise<string> | undefined;

  // Anyone but an operator gets what an unknown path gets: Koa's 404, nothing set, nothing said.
  const guard: Middleware = async (ctx, next) => {
    const operator = await options.access(ctx);
    if (!operator) return;
    ctx.state.operator = operator;
    await next();
  };
  const operatorOf = (ctx: Context) => ctx.state.operator as Principal;
  const toolNamed = (name: string) => options.tools().find((tool) => tool.name === name);

  router.get(base, guard, async (ctx) => {
    const { taskListPage, CHANGED_FILTERS } = await load();
    const status = param(ctx, 'status');
    const tool = param(ctx, 'tool');
    const changedKey = param(ctx, 'changed');
    const changed = changedKey !== undefined ? CHANGED_FILTERS[changedKey] : undefined;
    const cursor = param(ctx, 'cursor', 100);
    const now = clock();
    const filters = {
      status: status && STATUSES.has(status) ? status : undefined,
      tool,
      changed: changed && changedKey,
    };
    let page;
    try {
      page = (await options.tasks?.list({
        status: filters.status ? [filters.status as TaskStatus] : undefined,
        tool,
        changedAfter: changed?.within === undefined ? undefined : now - changed.within,
        changedBefore: changed?.olderThan === undefined ? undefined : now - changed.olderThan,
        cursor,
      })) ?? { tasks: [] };
    } catch (error) {
      if (error instanceof TaskQueryError) return refuse(ctx, 400, 'That page of the list does not exist.');
      throw error;
    }
    sendPage(
      ctx,
      taskListPage({
        base,
        now,
        tasks: page.tasks,
        tools: options.tools().map((t) => t.name),
        filters,
        cursor: page.cursor,
        first: cursor === undefined,
        events: options.tasks ? `${base}/events` : undefined,
        note: options.tasks ? undefined : 'No tool this server serves runs as a task: there are no tasks to show.',
      }),
    );
  });

  router.get(`${base}/stuck`, guard, async (ctx) => {
    const { stuckPage } = await load();
    const shown = {
      unchanged: minutes(ctx, 'unchanged', DEFAULT_STUCK_THRESHOLDS.unchangedMs),
      running: minutes(ctx, 'running', DEFAULT_STUCK_THRESHOLDS.runningMs),
    };
    const thresholds = { unchangedMs: shown.unchanged * 60_000, runningMs: shown.running * 60_000 };
    let page;
    try {
      page = (await options.tasks?.stuck({ thresholds, cursor: param(ctx, 'cursor', 100) })) ?? { tasks: [] };
    } catch (error) {
      if (error instanceof TaskQueryError) return refuse(ctx, 400, 'That page of the list does not exist.');
      throw error;
    }
    sendPage(ctx, stuckPage({ base, now: clock(), tasks: page.tasks, minutes: shown, cursor: page.cursor }));
  });

  /** A task's page for this operator; `revealed` (after the reveal POST) shows the values once. */
  const sendTaskPage = async (ctx: Context, task: TaskDetail, revealed?: RevealedValues) => {
    const { taskPage, taskDiagram } = await load();
    const tool = toolNamed(task.tool);
    const operator = operatorOf(ctx).id;
    const pending = options.dev && task.status === 'input_required' ? await options.tasks?.pending(task.taskId) : [];
    sendPage(
      ctx,
      taskPage({
        base,
        now: clock(),
        task,
        diagram: tool && taskDiagram(tool, task.states, task.visited),
        otherVersion: tool !== undefined && options.versionOf(tool.machine) !== task.version,
        csrf: csrf.token(operator, 'cancel', task.taskId),
        notice: param(ctx, 'cancel', 20) ?? param(ctx, 'answer', 20),
        // A page showing revealed values is not refreshed: a refresh would show them again, unasked.
        events:
          isTerminalStatus(task.status) || revealed
            ? undefined
            : `${base}/events?task=${encodeURIComponent(task.taskId)}`,
        revealCsrf: csrf.token(operator, 'reveal', task.taskId),
        revealed,
        answer: pending?.length ? { csrf: csrf.token(operator, 'answer', task.taskId), questions: pending } : undefined,
      }),
    );
  };

  router.get(`${base}/tasks/:id`, guard, async (ctx, next) => {
    const task = await options.tasks?.show(ctx.params.id!);
    if (!task) return next(); // 404
    await sendTaskPage(ctx, task);
  });

  /**
   * A console action's form, checked as cancel's is: from this very origin, the page's form, and
   * its token for this operator, `action` and task. Undefined once the request has been refused.
   */
  const actionForm = async (ctx: Context, action: string): Promise<URLSearchParams | undefined> => {
    if (!sameOrigin(ctx)) return void refuse(ctx, 403, 'Forbidden: the console takes actions from its own pages only.');
    if (!ctx.is('application/x-www-form-urlencoded')) return void refuse(ctx, 415, 'Send the console page’s form.');
    let form: URLSearchParams;
    try {
      form = new URLSearchParams(await readBody(ctx.req, MAX_FORM_BYTES, 10_000));
    } catch {
      return void refuse(ctx, 400, 'The form could not be read.');
    }
    if (!csrf.check(form.get('csrf'), operatorOf(ctx).id, action, ctx.params.id!)) {
      return void refuse(ctx, 403, 'Forbidden: reload the task’s page and try again.');
    }
    return form;
  };

  // Reveal: the arguments and answers, once, in this response only, and logged.
  router.post(`${base}/tasks/:id/reveal`, guard, async (ctx, next) => {
    const taskId = ctx.params.id!;
    if (!(await options.tasks?.show(taskId))) return next(); // 404
    if (!(await actionForm(ctx, 'reveal'))) return;
    const [task, revealed] = await Promise.all([options.tasks!.show(taskId), options.tasks!.reveal(taskId)]);
    if (!task || !revealed) return next();
    options.logger.info('console_task_revealed', { taskId, operator: operatorOf(ctx).id });
    await sendTaskPage(ctx, task, revealed);
  });

  // Answer a pending question: `baton dev` only, as tasks/update answers it.
  router.post(`${base}/tasks/:id/answer`, guard, async (ctx, next) => {
    const taskId = ctx.params.id!;
    if (!options.dev || !(await options.tasks?.show(taskId))) return next(); // 404
    const form = await actionForm(ctx, 'answer');
    if (!form) return;
    const { answerFromForm } = await load();
    const key = form.get('key') ?? '';
    const question = (await options.tasks!.pending(taskId))?.find((q) => q.key === key);
    const answer = question && answerFromForm(question, form);
    const taken = answer === undefined ? [] : ((await options.tasks!.answer(taskId, { [key]: answer })) ?? []);
    options.logger.info('console_task_answered', { taskId, operator: operatorOf(ctx).id, keys: taken });
    ctx.status = 303;
    ctx.redirect(`${base}/tasks/${encodeURIComponent(taskId)}?answer=${taken.length > 0 ? 'answered' : 'ignored'}`);
  });

  router.post(`${base}/tasks/:id/cancel`, guard, async (ctx, next) => {
    const taskId = ctx.params.id!;
    if (!sameOrigin(ctx)) return refuse(ctx, 403, 'Forbidden: the console takes actions from its own pages only.');
    if (!ctx.is('application/x-www-form-urlencoded')) return refuse(ctx, 415, 'Send the console page’s form.');
    let form: URLSearchParams;
    try {
      form = new URLSearchParams(await readBody(ctx.req, MAX_FORM_BYTES, 10_000));
    } catch {
      return refuse(ctx, 400, 'The form could not be read.');
    }
    const operator = operatorOf(ctx);
    if (!csrf.check(form.get('csrf'), operator.id, 'cancel', taskId)) {
      return refuse(ctx, 403, 'Forbidden: reload the task’s page and try again.');
    }
    const outcome = (await options.tasks?.cancel(taskId)) ?? 'missing';
    if (outcome === 'missing') return next(); // 404
    options.logger.info('console_task_cancelled', { taskId, operator: operator.id, outcome });
    ctx.status = 303;
    ctx.redirect(`${base}/tasks/${encodeURIComponent(taskId)}?cancel=${outcome}`);
  });

  router.get(`${base}/assets/console.css`, guard, async (ctx) => {
    style ??= Promise.all([import('../docs-site/index.js'), load()]).then(
      ([docs, console]) => docs.DOCS_STYLE + console.CONSOLE_STYLE,
    );
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'private, max-age=3600');
    ctx.type = 'text/css';
    ctx.body = await style;
  });
  replayRoutes(router, {
    base,
    guard,
    operatorOf,
    tools: options.tools,
    keyRing: options.keyRing,
    logger: options.logger,
    clock,
    csrf,
    sendPage,
    refuse,
    sameOrigin,
  });
  // Live updates: one stream per open page, fed by the store's change channel (console-events.ts).
  const events =
    options.tasks && new ConsoleEvents({ ...options.events, listen: (onChange) => options.tasks!.listen(onChange) });
  router.get(`${base}/events`, guard, async (ctx, next) => {
    const taskId = param(ctx, 'task', 64);
    if (!events || (ctx.query.task !== undefined && (!taskId || !(await options.tasks!.show(taskId))))) return next(); // 404
    if (!events.serve(ctx, operatorOf(ctx).id, taskId)) {
      ctx.set('Retry-After', '30');
      return refuse(ctx, 429, 'Too many console pages open: close some and reload.');
    }
  });
  diagramAssetRoutes(router, {
    base,
    guard,
    scripts: ['console.js', 'console-live.js'],
    what: 'The console',
    cache: 'private',
  });
  return router;
}
