/**
 * `GET /console/events`: the console's live updates (docs/console.md, "Live updates"). One
 * server-sent-events stream per open page, fed by the task store's change channel (the same
 * `publish`/`listen` as subscriptions/listen), through one store listener per instance however
 * many pages are open. A stream says only which tasks changed (ids, never their contents), and
 * says it at most once per `coalesceMs`: a burst of changes (a fleet's busy minute) becomes one
 * event, and the page fetches what it shows again through its own guarded route. Each operator
 * may hold a few streams at once, the instance a bounded number in all; a stream ends after
 * `maxLifetimeMs` and the browser opens it again (EventSource), so none is held for ever.
 */
import { PassThrough } from 'node:stream';
import type { Context } from 'koa';

export interface ConsoleEventsOptions {
  /** The store's change channel: called with each changed task's id; returns the stop. */
  listen: (onChange: (taskId: string) => void) => () => void;
  /** Streams one operator may hold open at once (4). */
  maxPerOperator?: number;
  /** Streams this instance holds open at once for all operators (64). */
  maxTotal?: number;
  /** Changes within this window are sent as one event (1000 ms). */
  coalesceMs?: number;
  /** A comment line this often keeps proxies from closing a quiet stream (25 s). */
  keepAliveMs?: number;
  /** A stream ends after this long; the browser reconnects (10 min). */
  maxLifetimeMs?: number;
}

/** Ids named in one event before it says `all` instead. */
const MAX_IDS_PER_EVENT = 100;

interface Stream {
  /** Only this task's changes (a task page), or every task's (the list). */
  taskId: string | undefined;
  pending: Set<string>;
  overflow: boolean;
  timer: NodeJS.Timeout | undefined;
  out: PassThrough;
}

export class ConsoleEvents {
  readonly #o: Required<Omit<ConsoleEventsOptions, 'listen'>>;
  readonly #listen: ConsoleEventsOptions['listen'];
  readonly #streams = new Set<Stream>();
  readonly #byOperator = new Map<string, number>();
  #stop: (() => void) | undefined;

  constructor(options: ConsoleEventsOptions) {
    this.#listen = options.listen;
    this.#o = {
      maxPerOperator: options.maxPerOperator ?? 4,
      maxTotal: options.maxTotal ?? 64,
      coalesceMs: options.coalesceMs ?? 1000,
      keepAliveMs: options.keepAliveMs ?? 25_000,
      maxLifetimeMs: options.maxLifetimeMs ?? 10 * 60_000,
    };
  }

  /** Streams open now (for tests and logs). */
  get open(): number {
    return this.#streams.size;
  }

  /**
   * Answers `ctx` with a stream of this operator's page's changes, or false (nothing sent) when
   * the operator or the instance holds as many streams as it may.
   */
  serve(ctx: Context, operator: string, taskId: string | undefined): boolean {
    const held = this.#byOperator.get(operator) ?? 0;
    if (held >= this.#o.maxPerOperator || this.#streams.size >= this.#o.maxTotal) return false;
    this.#byOperator.set(operator, held + 1);
    const stream: Stream = { taskId, pending: new Set(), overflow: false, timer: undefined, out: new PassThrough() };
    this.#streams.add(stream);
    this.#stop ??= this.#listen((id) => this.#changed(id));
    const keepAlive = setInterval(() => stream.out.write(': keep-alive\n\n'), this.#o.keepAliveMs);
    const lifetime = setTimeout(() => stream.out.end(), this.#o.maxLifetimeMs);
    keepAlive.unref();
    lifetime.unref();
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(keepAlive);
      clearTimeout(lifetime);
      clearTimeout(stream.timer);
      this.#streams.delete(stream);
      const left = (this.#byOperator.get(operator) ?? 1) - 1;
      if (left > 0) this.#byOperator.set(operator, left);
      else this.#byOperator.delete(operator);
      if (this.#streams.size === 0) {
        this.#stop?.();
        this.#stop = undefined;
      }
      stream.out.end();
    };
    ctx.req.once('close', close);
    stream.out.once('finish', close);
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.status = 200;
    ctx.set('Content-Type', 'text/event-stream; charset=utf-8');
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    // Proxies that buffer responses (nginx) would hold the events back.
    ctx.set('X-Accel-Buffering', 'no');
    ctx.body = stream.out;
    stream.out.write(`retry: 5000\nevent: ready\ndata: {}\n\n`);
    return true;
  }

  #changed(taskId: string): void {
    for (const stream of this.#streams) {
      if (stream.taskId !== undefined && stream.taskId !== taskId) continue;
      if (stream.pending.size >= MAX_IDS_PER_EVENT) stream.overflow = true;
      else stream.pending.add(taskId);
      stream.timer ??= setTimeout(() => this.#flush(stream), this.#o.coalesceMs);
    }
  }

  #flush(stream: Stream): void {
    stream.timer = undefined;
    const data = stream.overflow ? { all: true } : { tasks: [...stream.pending] };
    stream.pending.clear();
    stream.overflow = false;
    stream.out.write(`event: changed\ndata: ${JSON.stringify(data)}\n\n`);
  }
}
