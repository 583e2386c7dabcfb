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

/** What every logger of one `createLogger` call shares: the level and where and when lines go. */
interface LogSink {
  readonly threshold: number;
  readonly write: (line: string) => void;
  readonly now: () => number;
}

/** Creates a JSON-lines logger. */
export function createLogger(options: LoggerOptions = {}, fields: LogFields = {}): Logger {
  const sink: LogSink = {
    threshold: SEVERITY[options.level ?? 'info'],
    write: options.write ?? ((line: string) => process.stderr.write(line)),
    now: options.now ?? Date.now,
  };
  return new JsonLogger(sink, undefined, snapshot(fields));
}

/**
 * A logger is one small object that points at its parent: a controller makes a child for every
 * reconcile, most of which write nothing, so a child copies only its own fields and the merge with
 * its ancestors' waits for a line to be written. Its methods need their `this`, as pino's and
 * logr's do.
 */
class JsonLogger implements Logger {
  readonly #sink: LogSink;
  readonly #parent: JsonLogger | undefined;
  readonly #fields: LogFields;

  constructor(sink: LogSink, parent: JsonLogger | undefined, fields: LogFields) {
    this.#sink = sink;
    this.#parent = parent;
    this.#fields = fields;
  }

  error(msg: string, fields?: LogFields): void {
    this.#emit('error', msg, fields);
  }

  warn(msg: string, fields?: LogFields): void {
    this.#emit('warn', msg, fields);
  }

  info(msg: string, fields?: LogFields): void {
    this.#emit('info', msg, fields);
  }

  debug(msg: string, fields?: LogFields): void {
    this.#emit('debug', msg, fields);
  }

  child(fields: LogFields): Logger {
    return new JsonLogger(this.#sink, this, snapshot(fields));
  }

  enabled(level: LogLevel): boolean {
    return SEVERITY[level] <= this.#sink.threshold;
  }

  #emit(level: LogLevel, msg: string, extra: LogFields | undefined): void {
    const sink = this.#sink;
    if (SEVERITY[level] > sink.threshold) return;
    const record = Object.fromEntries([
      ['level', level],
      ['ts', timestamp(sink.now)],
      ['msg', msg],
      ...this.#entries(),
      ...(extra ? safeEntries(extra) : []),
    ]);
    // Redacted at every level: a debug line is as readable by whoever reads the logs as an error.
    const line = `${safeStringify(record, logReplacer)}\n`;
    try {
      sink.write(line);
    } catch {
      // The sink itself failed: there is nowhere left to report that, and the caller must go on.
    }
  }

  /** The fields of the root first, then each child's: a child's value of a field wins, in its parent's place. */
  #entries(): [string, unknown][] {
    const own = safeEntries(this.#fields);
    return this.#parent === undefined ? own : [...this.#parent.#entries(), ...own];
  }
}

/**
 * The fields as they are now, so a caller that changes its object later changes no logger: a
 * spread, one copy, where it can; where a getter throws, what `safeEntries` reads, marks included.
 */
function snapshot(fields: LogFields): LogFields {
  try {
    return { ...fields };
  } catch {
    return Object.fromEntries(safeEntries(fields));
  }
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
