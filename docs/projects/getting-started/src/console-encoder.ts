/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

/** Where a logger writes a line, as the runtime's createLogger takes it. */
export type LineWriter = (line: string) => void;

/**
 * Turns the runtime logger's JSON lines into lines for a person to read, as zap's development
 * console encoder writes them: time, level, message, then the other fields as JSON, tab-separated.
 * The fields are redacted before this sees them.
 *
 * @example
 * ```ts
 * const logger = createLogger({ write: consoleEncoder((line) => process.stderr.write(line)) });
 * ```
 */
export function consoleEncoder(write: LineWriter): LineWriter {
  return (line) => {
    write(consoleLine(line));
  };
}

/** One JSON log line as a console line. */
export function consoleLine(jsonLine: string): string {
  const { ts, level, msg, ...fields } = JSON.parse(jsonLine) as Record<string, unknown>;
  const columns = [String(ts), String(level).toUpperCase(), String(msg)];
  if (Object.keys(fields).length > 0) columns.push(JSON.stringify(fields));
  return `${columns.join('\t')}\n`;
}
