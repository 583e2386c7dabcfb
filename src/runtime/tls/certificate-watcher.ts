import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { join } from 'node:path';
import { silentLogger, type Logger } from '../log/logger.ts';
import type { CertKeyPair } from './certificate-authority.ts';
import type { CertificateSource } from './certificate-source.ts';

export interface CertificateWatcherOptions {
  /** File name of the certificate (chain), PEM. Default: 'tls.crt', as in a kubernetes.io/tls Secret. */
  certName?: string;
  /** File name of the private key, PEM. Default: 'tls.key'. */
  keyName?: string;
  /** Also re-read every this many ms, for file systems that report no changes. Default: 10 000. */
  pollInterval?: number;
  /** Where a pair that cannot be used is reported. Default: silentLogger. */
  logger?: Logger;
}

/**
 * Serves the certificate and key of a folder (a mounted Secret) and reads them again whenever the
 * folder changes, as controller-runtime's certwatcher: renewed certificates are served without a
 * restart. A half-written or mismatched pair is reported and the previous one kept.
 *
 * @example
 * ```ts
 * const certificate = await CertificateWatcher.start(certDir, { logger });
 * certificate.onChange(() => logger.info('serving a renewed certificate'));
 * ```
 */
export class CertificateWatcher implements CertificateSource {
  readonly #paths: { cert: string; key: string };
  readonly #logger: Logger;
  readonly #listeners = new Set<(pair: CertKeyPair) => void>();
  #pair: CertKeyPair;
  #watcher: FSWatcher | undefined;
  #timer: NodeJS.Timeout | undefined;
  #reloads: Promise<void> = Promise.resolve();

  private constructor(paths: { cert: string; key: string }, pair: CertKeyPair, logger: Logger) {
    this.#paths = paths;
    this.#pair = pair;
    this.#logger = logger;
  }

  /** Reads the pair (rejecting when it is missing or does not match) and starts watching the folder. */
  static async start(dir: string, options: CertificateWatcherOptions = {}): Promise<CertificateWatcher> {
    const paths = {
      cert: join(dir, options.certName ?? 'tls.crt'),
      key: join(dir, options.keyName ?? 'tls.key'),
    };
    const watcher = new CertificateWatcher(paths, await readPair(paths), options.logger ?? silentLogger);
    // The folder, not the files: a Secret volume swaps a symlink and an editor replaces a file.
    const reload = (): void => {
      watcher.reload().catch((err: unknown) => watcher.#logger.error('certificate reload failed', { err }));
    };
    watcher.#watcher = watch(dir, reload);
    watcher.#watcher.unref();
    watcher.#timer = setInterval(reload, options.pollInterval ?? 10_000);
    watcher.#timer.unref();
    return watcher;
  }

  current(): CertKeyPair {
    return this.#pair;
  }

  onChange(listener: (pair: CertKeyPair) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Reads the folder again, after any read already under way; resolves once done. */
  reload(): Promise<void> {
    const next = this.#reloads.then(() => this.#read());
    this.#reloads = next.catch(() => undefined);
    return next;
  }

  close(): void {
    this.#watcher?.close();
    clearInterval(this.#timer);
    this.#listeners.clear();
  }

  async #read(): Promise<void> {
    let pair: CertKeyPair;
    try {
      pair = await readPair(this.#paths);
    } catch (err) {
      this.#logger.warn('keeping the previous serving certificate', { err, cert: this.#paths.cert });
      return;
    }
    if (pair.cert === this.#pair.cert && pair.key === this.#pair.key) return;
    this.#pair = pair;
    this.#logger.info('serving a new certificate', { cert: this.#paths.cert });
    for (const listener of this.#listeners) listener(pair);
  }
}

async function readPair(paths: { cert: string; key: string }): Promise<CertKeyPair> {
  // Read one after the other: with both files missing, the error names the certificate every time,
  // not whichever read happened to fail first.
  const cert = await readFile(paths.cert, 'utf8');
  const key = await readFile(paths.key, 'utf8');
  if (!new X509Certificate(cert).checkPrivateKey(createPrivateKey(key))) {
    throw new Error(`the key in ${paths.key} is not the key of the certificate in ${paths.cert}`);
  }
  return { cert, key };
}
