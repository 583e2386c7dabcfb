import { redactingReplacer } from './redact.ts';

/** Log levels, most to least severe. `debug` is controller-runtime's V(1). */
export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

const SEVERITY: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

/** Key-value context carried by every line of a logger, e.g. `{ controller: 'webapp' }`. */
export type LogFields = Readonly<Record<string, unknown>>;

/**
 * A structured logger: one JSON object per line with `level`, `ts`, `msg` and the context fields.
 * Credentials in the fields (Secret data, tokens, Authorization headers) are written as `[REDACTED]`.
 */
export interface Logger {
  error(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  debug(msg: string, fields?: LogFields): void;
  /** A logger whose lines also carry `fields`. */
  child(fields: LogFields): Logger;
  enabled(level: LogLevel): boolean;
}

export interface LoggerOptions {
  /** Lowest level written. Default: `info`. */
  level?: LogLevel;
  /** Where lines go. Default: process.stderr. */
  write?: (line: string) => void;
  /** Clock for the `ts` field. Default: Date.now. */
  now?: () => number;
}

/** Creates a JSON-lines logger. */
export function createLogger(options: LoggerOptions = {}, fields: LogFields = {}): Logger {
  const threshold = SEVERITY[options.level ?? 'info'];
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const now = options.now ?? Date.now;
  const emit = (level: LogLevel, msg: string, extra: LogFields | undefined): void => {
    if (SEVERITY[level] > threshold) return;
    const record = { level, ts: new Date(now()).toISOString(), msg, ...fields, ...extra };
    // Redacted at every level: a debug line is as readable by whoever reads the logs as an error.
    write(`${JSON.stringify(record, redactingReplacer)}\n`);
  };
  return {
    error: (msg, extra) => emit('error', msg, extra),
    warn: (msg, extra) => emit('warn', msg, extra),
    info: (msg, extra) => emit('info', msg, extra),
    debug: (msg, extra) => emit('debug', msg, extra),
    child: (more) => createLogger(options, { ...fields, ...more }),
    enabled: (level) => SEVERITY[level] <= threshold,
  };
}

/** A logger that writes nothing: the default where a component is given none. */
export const silentLogger: Logger = createLogger({ write: () => undefined, level: 'error' });
