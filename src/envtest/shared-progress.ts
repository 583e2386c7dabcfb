import { appendFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/*
 * Progress shared through a file: the process doing a long download or build appends its lines,
 * and processes waiting for it (a second `tsoperator envtest use`, parallel test files) show them
 * too, instead of sitting silent for the minutes the first one takes.
 */

/**
 * A progress callback that also appends each line to `file`.
 *
 * @example
 * const progress = sharedProgress(join(lockDir, 'progress'), (line) => process.stderr.write(`${line}\n`));
 */
export function sharedProgress(file: string, forward: (line: string) => void): (line: string) => void {
  return (line) => {
    forward(line);
    try {
      appendFileSync(file, `${line}\n`);
    } catch {
      // Progress is a courtesy to other processes: it never fails the work it reports on.
    }
  };
}

/** Forwards the lines another process appends to a `sharedProgress` file, each once. */
export class ProgressFollower {
  readonly #file: string;
  readonly #forward: (line: string) => void;
  #seen = 0;

  constructor(file: string, forward: (line: string) => void) {
    this.#file = file;
    this.#forward = forward;
  }

  /** Forwards the complete lines added since the last call; a missing file has none yet. */
  async poll(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.#file, 'utf8');
    } catch {
      return;
    }
    const complete = text.slice(0, text.lastIndexOf('\n') + 1);
    if (complete.length <= this.#seen) return;
    const added = complete.slice(this.#seen);
    this.#seen = complete.length;
    for (const line of added.split('\n').slice(0, -1)) this.#forward(line);
  }
}
