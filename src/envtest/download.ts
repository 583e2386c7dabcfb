import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { execa } from 'execa';
import { FAILSAFE_SCHEMA, load as parseYaml } from 'js-yaml';
import { TsoperatorError } from '../errors.ts';
import { ARCHIVE_BINARIES } from './binaries.ts';
import { platform } from './paths.ts';

/** controller-tools publishes the envtest release archives and this index of them with their sha512. */
export const DEFAULT_INDEX_URL =
  'https://raw.githubusercontent.com/kubernetes-sigs/controller-tools/HEAD/envtest-releases.yaml';

export interface DownloadOptions {
  version: string;
  /** Folder to put the binaries in; each binary appears whole or not at all. */
  dest: string;
  indexUrl: string;
  onProgress: (line: string) => void;
  /** Time allowed for each request. Default: 10 minutes (the archives are about 100 MB). */
  timeoutMs?: number;
  /** Ends the download, rejecting with the signal's reason. */
  signal?: AbortSignal;
}

/** `downloaded`, or why not when the caller may try another source (no network, not listed). */
export type DownloadOutcome = { kind: 'downloaded' } | { kind: 'unavailable'; reason: string };

interface ReleaseEntry {
  hash: string;
  selfLink: string;
}

/**
 * Downloads the envtest release archive for a version, verifies its sha512 against the index and
 * unpacks its binaries into `dest`. A checksum mismatch is an error, not a reason to try elsewhere,
 * and leaves nothing behind.
 */
export async function downloadRelease(options: DownloadOptions): Promise<DownloadOutcome> {
  const timeoutMs = options.timeoutMs ?? 600_000;
  const request = (): AbortSignal => requestSignal(timeoutMs, options.signal);
  const archiveName = `envtest-v${options.version}-${platform().os}-${platform().arch}.tar.gz`;
  let index: unknown;
  try {
    // Every scalar as a string: an all-digit hash must not turn into a number.
    index = parseYaml(await fetchText(options.indexUrl, request()), { schema: FAILSAFE_SCHEMA });
  } catch (err) {
    options.signal?.throwIfAborted();
    return { kind: 'unavailable', reason: `could not read ${options.indexUrl} (${describe(err)})` };
  }
  const entry = findRelease(index, options.version, archiveName);
  if (!entry) return { kind: 'unavailable', reason: `${archiveName} is not listed in ${options.indexUrl}` };
  options.onProgress(`downloading ${entry.selfLink}`);
  const staging = await mkdtemp(join(dirname(options.dest), '.download-'));
  try {
    const archive = join(staging, archiveName);
    const digest = await fetchToFile(entry.selfLink, archive, request(), options.onProgress);
    if (digest !== entry.hash.toLowerCase()) {
      throw new TsoperatorError(
        `Checksum mismatch for ${entry.selfLink}: expected sha512 ${entry.hash}, got ${digest}. The archive was discarded; try again, and report it if it persists.`,
      );
    }
    await unpack(archive, join(staging, 'out'));
    await placeDownloaded(join(staging, 'out'), options.dest);
    options.onProgress(`unpacked ${ARCHIVE_BINARIES.join(', ')} into ${options.dest}`);
    return { kind: 'downloaded' };
  } catch (err) {
    options.signal?.throwIfAborted();
    if (err instanceof TsoperatorError) throw err;
    return { kind: 'unavailable', reason: `download of ${entry.selfLink} failed (${describe(err)})` };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

function findRelease(index: unknown, version: string, archiveName: string): ReleaseEntry | undefined {
  const releases = (index as { releases?: Record<string, Record<string, Partial<ReleaseEntry>>> } | null)
    ?.releases;
  const entry = releases?.[`v${version}`]?.[archiveName];
  if (typeof entry?.hash !== 'string' || typeof entry.selfLink !== 'string') return undefined;
  return { hash: entry.hash, selfLink: entry.selfLink };
}

/** Ends a request after `timeoutMs`, or when `signal` aborts. */
function requestSignal(timeoutMs: number, signal: AbortSignal | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([timeout, signal]) : timeout;
}

async function fetchText(url: string, signal: AbortSignal): Promise<string> {
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.text();
}

/** Streams `url` into `file`, reporting each tenth of it, and returns its sha512 in hex. */
async function fetchToFile(
  url: string,
  file: string,
  signal: AbortSignal,
  onProgress: (line: string) => void,
): Promise<string> {
  const response = await fetch(url, { signal });
  if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
  const hash = createHash('sha512');
  const meter = downloadMeter(Number(response.headers.get('content-length') ?? NaN), onProgress);
  const body = Readable.fromWeb(response.body);
  body.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    meter(chunk.length);
  });
  await pipeline(body, createWriteStream(file));
  return hash.digest('hex');
}

const MB = 1024 * 1024;

/**
 * Counts received bytes and reports `  42.0 of 103.5 MB (40%)` at each tenth of `total`, or every
 * 10 MB when the server sent no length: steps of the download, not of the clock.
 */
export function downloadMeter(total: number, onProgress: (line: string) => void): (bytes: number) => void {
  const known = Number.isFinite(total) && total > 0;
  const step = known ? total / 10 : 10 * MB;
  let received = 0;
  let reported = 0;
  return (bytes) => {
    received += bytes;
    const steps = Math.floor(received / step);
    if (steps <= reported) return;
    reported = steps;
    const mb = (n: number): string => (n / MB).toFixed(1);
    onProgress(
      known
        ? `  ${mb(received)} of ${mb(total)} MB (${Math.floor((100 * received) / total)}%)`
        : `  ${mb(received)} MB`,
    );
  };
}

/** Unpacks the archive (binaries under controller-tools/envtest/) flat into `out`. */
async function unpack(archive: string, out: string): Promise<void> {
  const extracted = join(dirname(archive), 'extracted');
  await mkdir(extracted);
  await execa('tar', ['-xzf', archive, '-C', extracted]);
  await mkdir(out);
  const binDir = join(extracted, 'controller-tools', 'envtest');
  const names = await readdir(binDir);
  for (const name of ARCHIVE_BINARIES) {
    if (!names.includes(name)) throw new TsoperatorError(`The envtest archive ${archive} has no ${name}.`);
    await rename(join(binDir, name), join(out, name));
    await chmod(join(out, name), 0o755);
  }
}

/**
 * Moves the unpacked binaries into `dest`, which may already hold some (a kube-controller-manager
 * built earlier, a download cut short): each binary is renamed into place whole.
 */
async function placeDownloaded(out: string, dest: string): Promise<void> {
  await mkdir(dest, { recursive: true });
  for (const name of ARCHIVE_BINARIES) await rename(join(out, name), join(dest, name));
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return `${err.message}${cause}`;
  }
  return String(err);
}
