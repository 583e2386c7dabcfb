import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { DevtoolsConnection } from './devtools-connection.ts';

/** Debian's Chromium: the browser CI installs (.ci/run), never one that downloads itself. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** A headless Chromium and the DevTools connection to it; disposing it ends the browser. */
export interface Chromium extends AsyncDisposable {
  readonly devtools: DevtoolsConnection;
}

/** Fails with what to install when Chromium is missing: a skip would hide the check in CI. */
export function assertChromiumInstalled(): void {
  if (existsSync(CHROMIUM_PATH)) return;
  throw new Error(
    `Chromium is not installed (${CHROMIUM_PATH} is missing); the book's browser test needs Debian's ` +
      'chromium package: sudo apt-get update && sudo apt-get install -y chromium',
  );
}

function chromiumArgs(profile: string): string[] {
  const args: string[] = [
    '--headless',
    '--disable-gpu',
    // A container's /dev/shm is often too small for the renderer.
    '--disable-dev-shm-usage',
    '--no-first-run',
    '--no-default-browser-check',
    '--window-size=1280,900',
    '--remote-debugging-port=0',
    `--user-data-dir=${profile}`,
  ];
  // Chromium refuses to start as root with its sandbox on, and CI runs as root.
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  args.push('about:blank');
  return args;
}

/** The browser's DevTools address, which Chromium prints on stderr once it listens (port 0 above). */
function devtoolsUrl(browser: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let stderr = '';
    const timer: NodeJS.Timeout = setTimeout(
      () => reject(new Error(`Chromium did not start:\n${stderr}`)),
      30_000,
    );
    browser.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match: RegExpMatchArray | null = stderr.match(/DevTools listening on (ws:\/\/\S+)/);
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      resolve(match[1]);
    });
    browser.once('exit', (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited with ${code}:\n${stderr}`));
    });
  });
}

export async function launchChromium(): Promise<Chromium> {
  assertChromiumInstalled();
  const profile: string = await mkdtemp(join(tmpdir(), 'tsoperator-chromium-'));
  const browser: ChildProcess = spawn(CHROMIUM_PATH, chromiumArgs(profile), {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited: Promise<void> = new Promise<void>((resolve) => browser.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (browser.exitCode === null && browser.signalCode === null) browser.kill('SIGTERM');
    await exited;
    await rm(profile, { recursive: true, force: true });
  };
  let devtools: DevtoolsConnection;
  try {
    devtools = await DevtoolsConnection.open(await devtoolsUrl(browser));
  } catch (error: unknown) {
    await stop();
    throw error;
  }
  return {
    devtools,
    [Symbol.asyncDispose]: async (): Promise<void> => {
      devtools.close();
      await stop();
    },
  };
}
