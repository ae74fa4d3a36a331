/**
 * The console's replay routes (docs/console.md, "Replay a paused flow"): `GET /console/replay`
 * shows the form; `POST /console/replay` opens a pasted `requestState` or continues a fork with
 * the answers given, one step at a time (engine/flow/flow-replay.ts). Operators only, like every
 * console route (404 to anyone else); a POST must come from this very origin with the page's
 * token, bound to the operator and the replay action. Each step is logged
 * (`console_state_replayed`): opening a state shows a caller's context to the operator.
 */
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { FlowReplay, type KeyRing, type Logger, type ToolDefinition } from '../engine/index.js';
import type { Principal } from '../protocol/index.js';
import type { ConsoleCsrf } from './console-csrf.js';
import { readBody } from './read-body.js';

/** A sealed state is at most 16 KiB; answers and the form's own fields are small beside it. */
const MAX_REPLAY_FORM_BYTES = 64 * 1024;
const ACTION = 'replay';

export interface ReplayRoutesOptions {
  base: string;
  guard: Middleware;
  operatorOf: (ctx: Context) => Principal;
  tools: () => ToolDefinition[];
  keyRing: KeyRing;
  logger: Logger;
  clock: () => number;
  csrf: ConsoleCsrf;
  sendPage: (ctx: Context, html: string) => void;
  refuse: (ctx: Context, status: number, text: string) => void;
  sameOrigin: (ctx: Context) => boolean;
}

export function replayRoutes(router: Router, options: ReplayRoutesOptions): void {
  const { base, guard, csrf, clock } = options;
  const replay = new FlowReplay({ keyRing: options.keyRing, clock, logger: options.logger });
  const load = () => import('../console/index.js');
  const token = (ctx: Context) => csrf.token(options.operatorOf(ctx).id, ACTION, '');

  router.get(`${base}/replay`, guard, async (ctx) => {
    const { replayPage } = await load();
    options.sendPage(ctx, replayPage({ base, now: clock(), csrf: token(ctx) }));
  });

  router.post(`${base}/replay`, guard, async (ctx) => {
    if (!options.sameOrigin(ctx)) {
      return options.refuse(ctx, 403, 'Forbidden: the console takes actions from its own pages only.');
    }
    if (!ctx.is('application/x-www-form-urlencoded')) return options.refuse(ctx, 415, 'Send the console page’s form.');
    let form: URLSearchParams;
    try {
      form = new URLSearchParams(await readBody(ctx.req, MAX_REPLAY_FORM_BYTES, 10_000));
    } catch {
      return options.refuse(ctx, 400, 'The form could not be read.');
    }
    const operator = options.operatorOf(ctx);
    if (!csrf.check(form.get('csrf'), operator.id, ACTION, '')) {
      return options.refuse(ctx, 403, 'Forbidden: reload the replay page and try again.');
    }
    const { replayPage, readReplayAnswers, taskDiagram } = await load();
    const requestState = form.get('requestState')?.trim() ?? '';
    const origin = form.get('origin') || requestState;
    const page = { base, now: clock(), csrf: token(ctx), origin };
    const opened = replay.open(requestState);
    const tool = opened && options.tools().find((candidate) => candidate.name === opened.tool);
    if (!opened) {
      return options.sendPage(
        ctx,
        replayPage({
          ...page,
          problem:
            'That requestState does not open with this server’s keys: it was changed, or another server sealed it.',
        }),
      );
    }
    if (!tool) {
      return options.sendPage(
        ctx,
        replayPage({ ...page, from: opened, problem: `This server does not serve ${opened.tool}.` }),
      );
    }
    const read = readReplayAnswers(form);
    if ('problem' in read) return options.sendPage(ctx, replayPage({ ...page, from: opened, problem: read.problem }));
    const answered = Object.keys(read.answers).length > 0;
    const step = await replay.step({
      tool,
      token: requestState,
      operator: operator.id,
      ...(answered ? { inputResponses: read.answers } : {}),
    });
    const diagram = taskDiagram(tool, opened.states);
    if (step.kind === 'refused') {
      return options.sendPage(ctx, replayPage({ ...page, from: opened, diagram, problem: step.message }));
    }
    options.logger.info('console_state_replayed', {
      operator: operator.id,
      tool: tool.name,
      fork: opened.fork,
      round: opened.round,
      answered,
    });
    const { outcome } = step;
    const shown =
      outcome.kind === 'complete'
        ? { kind: 'complete' as const, output: outcome.output }
        : outcome.kind === 'input_required'
          ? { kind: 'asking' as const, inputRequests: outcome.inputRequests, fork: outcome.requestState }
          : {
              kind: 'failed' as const,
              message: outcome.kind === 'failed' ? outcome.message : `The replay ended: ${outcome.kind}.`,
            };
    options.sendPage(ctx, replayPage({ ...page, from: opened, diagram, outcome: shown }));
  });
}
