/**
 * Log messages a machine reports while it runs. Logging is deprecated in 2026-07-28 and Baton
 * sends none there; a 2025-11-25 session forwards them as `notifications/message` at or above
 * the level the client chose with `logging/setLevel` (spec 2025-11-25, server/utilities/logging).
 */
import { emit } from 'xstate';

/** The type of the event `reportLog` emits; the engine forwards it as a log notification. */
export const LOG_EVENT = 'baton.log';

/** The syslog severities of RFC 5424, least severe first (spec, utilities/logging). */
export const LOGGING_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;
/** One of `LOGGING_LEVELS`. */
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

/** A log message as `reportLog` takes it. */
export interface LogReport {
  level: LoggingLevel;
  /** Any JSON value: a message string or a structured object. */
  data: unknown;
  /** Names the part of the tool that logs (the spec's optional `logger`). */
  logger?: string;
}

/** An action that reports a log message: `entry: reportLog({ level: 'info', data: 'started' })`. */
export function reportLog<TContext = any>(report: LogReport | ((args: { context: TContext }) => LogReport)) {
  return emit(({ context }) => ({
    type: LOG_EVENT,
    ...(typeof report === 'function' ? report({ context: context as TContext }) : report),
  })) as any;
}

export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return (LOGGING_LEVELS as readonly unknown[]).includes(value);
}
