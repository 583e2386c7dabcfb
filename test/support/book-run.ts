import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeEnding, type BackgroundBlock } from './background-block.ts';
import { readBookPage, type BookStep } from './book-page.ts';
import { repoRoot } from './cli.ts';
import { ReaderTerminal } from './reader-terminal.ts';
import { readerEnvironment } from './reader-tools.ts';

/** A foreground block's limit: `npm install` on a cold cache is the slowest a page runs. */
const BLOCK_TIMEOUT_MS = 600_000;
/** How long a background block may take to print its line: a first `envtest start` builds binaries. */
const BACKGROUND_READY_MS = 600_000;
/** Between Ctrl-C and SIGKILL: a control plane stops its components in a few seconds. */
const STOP_GRACE_MS = 30_000;
/** How much of a block's output a failure shows: its end, where the error is. */
const OUTPUT_SHOWN = 6_000;

/** A background block and where the page has it, for messages. */
interface Running {
  readonly block: BackgroundBlock;
  readonly where: string;
  readonly code: string;
}

export interface BookRunOptions {
  /** The folder a copy directive's source is in, VitePress's `@/`. Default: the book's docs/. */
  readonly docs?: string;
  /** Between Ctrl-C and SIGKILL to a background block. Default: 30 s. */
  readonly stopGraceMs?: number;
}

/** What a run did, page by page, for the test's diagnostics. */
export interface PageReport {
  readonly page: string;
  readonly ran: number;
  readonly notRun: readonly string[];
  readonly seconds: number;
}

/**
 * Runs the blocks of `pages` (files under docs/), one page after the other, as a reader who copies
 * them does: in one fresh folder, in one terminal whose directory and variables carry over, with the
 * background blocks in terminals of their own. Throws at the first block that fails, with the page,
 * the line, the block and its output. Every process it started is gone when it returns or throws.
 */
export async function runBookPages(
  pages: readonly string[],
  options: BookRunOptions = {},
): Promise<PageReport[]> {
  const docs = options.docs ?? join(repoRoot, 'docs');
  const stopGraceMs = options.stopGraceMs ?? STOP_GRACE_MS;
  const root = await mkdtemp(join(tmpdir(), 'tsoperator-book-'));
  const reader = join(root, 'reader');
  await mkdir(reader);
  const terminal = new ReaderTerminal(
    reader,
    await readerEnvironment(join(root, 'bin')),
    join(root, 'state'),
  );
  const running: Running[] = [];
  const reports: PageReport[] = [];
  try {
    for (const page of pages) {
      const started = Date.now();
      const name = relative(repoRoot, page);
      const steps = await readBookPage(page, name);
      for (const step of steps) {
        for (const { block } of running) for (const [n, v] of block.newExports()) terminal.setVariable(n, v);
        await runStep(step, `${name}:${step.line}`, { terminal, running, docs, stopGraceMs });
      }
      const notRun = steps.flatMap((s) => (s.kind === 'not-run' ? [`${name}:${s.line} (${s.why})`] : []));
      const seconds = Math.round((Date.now() - started) / 1000);
      reports.push({ page: name, ran: steps.length - notRun.length, notRun, seconds });
    }
    const ended = running.find(({ block }) => block.endedEarly);
    if (ended)
      throw new Error(`${ended.where}: the background block ended before the run did\n${logs(running)}`);
    return reports;
  } finally {
    // Last started, first stopped: the operator goes before the control plane it talks to.
    for (const { block } of running.reverse()) await block.stop(stopGraceMs);
    await terminal.close();
    await rm(root, { recursive: true, force: true });
  }
}

/** Where a run is: the reader's terminal, the background blocks started so far, the docs folder. */
interface RunState {
  readonly terminal: ReaderTerminal;
  readonly running: Running[];
  readonly docs: string;
  readonly stopGraceMs: number;
}

async function runStep(step: BookStep, where: string, state: RunState): Promise<void> {
  const { terminal, running, docs } = state;
  switch (step.kind) {
    case 'run': {
      const run = await terminal.run(step.code, BLOCK_TIMEOUT_MS);
      if (run.ending.code !== 0 || run.timedOut) {
        const how = run.timedOut
          ? `did not end within ${BLOCK_TIMEOUT_MS / 1000} s`
          : describeEnding(run.ending);
        throw new Error(
          `${where}: ${firstLine(step.code)} failed (${how})\n${tail(run.output)}${logs(running)}`,
        );
      }
      return;
    }
    case 'eventually':
      return eventually(step.code, step.seconds, where, terminal, running);
    case 'background': {
      const block = terminal.startBackground(step.code);
      running.push({ block, where, code: step.code });
      try {
        await block.waitForLine(step.until, BACKGROUND_READY_MS);
      } catch (err) {
        throw new Error(`${where}: ${firstLine(step.code)}: ${(err as Error).message}\n${tail(block.log)}`, {
          cause: err,
        });
      }
      return;
    }
    case 'not-run':
      return;
    case 'stop':
      return stopBackground(step.running, where, state);
    case 'write': {
      const file = join(terminal.folder, step.path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, step.content);
      return;
    }
    case 'copy': {
      const source = join(docs, step.from, step.path);
      if (!existsSync(source)) throw new Error(`${where}: ${source}, the file to copy, is missing`);
      const file = join(terminal.folder, step.path);
      await mkdir(dirname(file), { recursive: true });
      await copyFile(source, file);
      return;
    }
  }
}

/**
 * Ctrl-C in the terminal of the latest background block still running whose command has `command`
 * in it, as the reader stops an operator to start it again; it must not have ended on its own.
 */
async function stopBackground(
  command: string,
  where: string,
  { running, stopGraceMs }: RunState,
): Promise<void> {
  const index = running.findLastIndex(({ code }) => code.includes(command));
  const found = running[index];
  if (found === undefined) throw new Error(`${where}: no background block runs \`${command}\` to stop`);
  if (found.block.endedEarly) {
    throw new Error(
      `${found.where}: the background block ended before the page stopped it\n${tail(found.block.log)}`,
    );
  }
  await found.block.stop(stopGraceMs);
  running.splice(index, 1);
}

/** Runs a block until it succeeds, once a second, for up to `seconds`. */
async function eventually(
  code: string,
  seconds: number,
  where: string,
  terminal: ReaderTerminal,
  running: readonly Running[],
): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const run = await terminal.run(code, Math.max(deadline - Date.now(), 1000));
    if (run.ending.code === 0 && !run.timedOut) return;
    if (Date.now() >= deadline) {
      throw new Error(
        `${where}: ${firstLine(code)} did not succeed within ${seconds} s; its last run (${describeEnding(run.ending)}):\n${tail(run.output)}${logs(running)}`,
      );
    }
    await sleep(1000);
  }
}

function firstLine(code: string): string {
  return `\`${code.split('\n')[0] ?? ''}\``;
}

function tail(output: string): string {
  return output.length > OUTPUT_SHOWN ? `...${output.slice(-OUTPUT_SHOWN)}` : output;
}

/** The end of each background block's output: what the operator logged is often the why. */
function logs(running: readonly Running[]): string {
  return running
    .map(({ block, where }) => `\n--- background block at ${where}:\n${tail(block.log)}`)
    .join('');
}
