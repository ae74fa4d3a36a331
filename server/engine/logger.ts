/**
 * The logging seam. Baton logs structured events (never secrets, never sealed state contents);
 * the default writes JSON lines to stderr so stdout stays free for the stdio transport.
 */
export interface Logger {
  info(event: string, fields?: Record<string, unknown>): void;
  warn(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
}

function write(level: string, event: string, fields?: Record<string, unknown>) {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, event, ...fields })}\n`);
}

/** The default logger: one JSON line per event on stderr, so stdout stays free for stdio. */
export const stderrLogger: Logger = {
  info: (event, fields) => write('info', event, fields),
  warn: (event, fields) => write('warn', event, fields),
  error: (event, fields) => write('error', event, fields),
};

/** A logger that drops everything (tests, or an application that logs elsewhere). */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
