import { errorMessage } from './error-message.ts';
import { redactingReplacer } from './redact.ts';
import { safeEntries, safeStringify } from './safe-json.ts';

/** Log levels, most to least severe. `debug` is controller-runtime's V(1). */
export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

const SEVERITY: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

/** Key-value context carried by every line of a logger, e.g. `{ controller: 'webapp' }`. */
export type LogFields = Readonly<Record<string, unknown>>;

/**
 * A structured logger: one JSON object per line with `level`, `ts`, `msg` and the context fields.
 * Credentials in the fields (Secret data, tokens, Authorization headers) are written as `[REDACTED]`.
 * It never throws: what a field holds that JSON cannot (cycles, BigInts, throwing getters) is
 * marked in place (see `safeStringify`), so a failure is never hidden by the line that reports it.
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
    const record = Object.fromEntries([
      ['level', level],
      ['ts', timestamp(now)],
      ['msg', msg],
      ...safeEntries(fields),
      ...(extra ? safeEntries(extra) : []),
    ]);
    // Redacted at every level: a debug line is as readable by whoever reads the logs as an error.
    const line = `${safeStringify(record, logReplacer)}\n`;
    try {
      write(line);
    } catch {
      // The sink itself failed: there is nowhere left to report that, and the caller must go on.
    }
  };
  return {
    error: (msg, extra) => emit('error', msg, extra),
    warn: (msg, extra) => emit('warn', msg, extra),
    info: (msg, extra) => emit('info', msg, extra),
    debug: (msg, extra) => emit('debug', msg, extra),
    child: (more) => createLogger(options, mergedFields(fields, more)),
    enabled: (level) => SEVERITY[level] <= threshold,
  };
}

/**
 * A child's fields: a spread, which a logger made per reconcile needs to be cheap. The safe merge
 * instead when a getter of `more` throws, or when a Symbol key is there: it names a Symbol key as
 * lines write it (`Symbol(x)`), so a parent's stays before the child's fields and a child's
 * `"Symbol(x)"` replaces it, where a spread would keep both apart. Each line reads them again
 * through safeEntries.
 */
function mergedFields(fields: LogFields, more: LogFields): LogFields {
  try {
    if (
      Object.getOwnPropertySymbols(fields).length === 0 &&
      Object.getOwnPropertySymbols(more).length === 0
    ) {
      return { ...fields, ...more };
    }
  } catch {
    // A getter or a proxy that throws: the safe merge marks it.
  }
  return Object.fromEntries([...safeEntries(fields), ...safeEntries(more)]);
}

/**
 * `redactingReplacer`, and an Error's `cause` too: safeStringify stops at a cycle of causes, where
 * JSON.stringify with the public replacer would recurse for ever on the fresh copies.
 */
function logReplacer(key: string, value: unknown): unknown {
  const replaced = redactingReplacer(key, value);
  if (!(value instanceof Error) || value.cause === undefined) return replaced;
  return typeof replaced === 'object' && replaced !== null ? { ...replaced, cause: value.cause } : replaced;
}

function timestamp(now: () => number): string {
  try {
    return new Date(now()).toISOString();
  } catch (err) {
    return `[Unreadable: ${errorMessage(err)}]`;
  }
}

/** A logger that writes nothing: the default where a component is given none. */
export const silentLogger: Logger = createLogger({ write: () => undefined, level: 'error' });
