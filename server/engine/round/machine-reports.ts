/**
 * What a machine reports while it runs (reportProgress, reportLog), forwarded to whoever runs the
 * round: progress only while it increases (spec, basic/patterns/progress), logs at a known level.
 */
import type { AnyActor, AnyEventObject, InspectionEvent, Subscription } from 'xstate';
import { PROGRESS_EVENT } from '../authoring/input-states.js';
import { isLoggingLevel, LOG_EVENT, type LogReport } from '../authoring/log-reports.js';

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

export function forwardProgress(actor: AnyActor, onProgress: (report: Progress) => void): Subscription {
  let last = -Infinity;
  return actor.on(PROGRESS_EVENT, (event: AnyEventObject) => {
    const { progress, total, message } = event as unknown as Progress;
    if (typeof progress !== 'number' || !Number.isFinite(progress) || progress <= last) return;
    last = progress;
    onProgress({
      progress,
      ...(typeof total === 'number' ? { total } : {}),
      ...(typeof message === 'string' ? { message } : {}),
    });
  });
}

export function forwardLogs(actor: AnyActor, onLog: (report: LogReport) => void): Subscription {
  return actor.on(LOG_EVENT, (event: AnyEventObject) => {
    const { level, data, logger } = event as unknown as LogReport;
    if (!isLoggingLevel(level)) return;
    onLog({ level, data, ...(typeof logger === 'string' ? { logger } : {}) });
  });
}

/**
 * The root machine's state value after each microstep (eventless and transient states included),
 * through the actor system's inspection: only values, names from the machine, never its context.
 */
export function forwardStates(actor: AnyActor, onStates: (value: unknown) => void): Subscription {
  return actor.system.inspect((event: InspectionEvent) => {
    if (event.type === '@xstate.microstep' && event.actorRef === actor) {
      onStates((event.snapshot as { value?: unknown }).value);
    }
  });
}
