import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createSecureContext } from 'node:tls';
import type { CertKeyPair } from '../tls/certificate-authority.ts';
import type { Logger } from '../log/logger.ts';

/** Where the watcher reads the pair, and how often it looks besides watching. */
export interface CertificateWatcherOptions {
  readonly dir: string;
  readonly certName: string;
  readonly keyName: string;
  /** Re-read every this many ms, for file systems that do not report changes. */
  readonly pollInterval: number;
  readonly logger: Logger;
  /** Called with each new valid pair. */
  readonly onChange: (pair: CertKeyPair) => void;
}

/**
 * Serves the newest certificate and key of a folder, as controller-runtime's certwatcher: a
 * Secret volume swaps its files atomically but a hand-run rotation writes one file, then the
 * other, so a pair that does not match is skipped and the previous one kept until both agree.
 */
export class CertificateWatcher {
  readonly #options: CertificateWatcherOptions;
  #current: CertKeyPair;
  #watcher: FSWatcher | undefined;
  #timer: NodeJS.Timeout | undefined;
  #reloading: Promise<void> | undefined;
  #again = false;

  private constructor(options: CertificateWatcherOptions, current: CertKeyPair) {
    this.#options = options;
    this.#current = current;
  }

  /** Reads the pair (throws when it is missing or invalid) and starts watching the folder. */
  static async start(options: CertificateWatcherOptions): Promise<CertificateWatcher> {
    const watcher = new CertificateWatcher(options, await readPair(options));
    watcher.#watcher = watch(options.dir, () => watcher.#reload());
    watcher.#watcher.on('error', (err) =>
      options.logger.warn('cannot watch the certificate folder', { err }),
    );
    watcher.#timer = setInterval(() => watcher.#reload(), options.pollInterval);
    watcher.#timer.unref();
    return watcher;
  }

  /** The pair new connections are served with. */
  get current(): CertKeyPair {
    return this.#current;
  }

  close(): void {
    this.#watcher?.close();
    clearInterval(this.#timer);
  }

  /** Coalesces bursts of events: one read at a time, and one more if anything happened meanwhile. */
  #reload(): void {
    if (this.#reloading) {
      this.#again = true;
      return;
    }
    this.#reloading = (async () => {
      do {
        this.#again = false;
        await this.#readOnce();
      } while (this.#again);
      this.#reloading = undefined;
    })();
  }

  async #readOnce(): Promise<void> {
    try {
      const pair = await readPair(this.#options);
      if (pair.cert === this.#current.cert && pair.key === this.#current.key) return;
      this.#current = pair;
      this.#options.logger.info('serving a new certificate', { dir: this.#options.dir });
      this.#options.onChange(pair);
    } catch (err) {
      this.#options.logger.debug('certificate folder not readable yet, keeping the current pair', { err });
    }
  }
}

async function readPair(options: CertificateWatcherOptions): Promise<CertKeyPair> {
  const [cert, key] = await Promise.all([
    readFile(join(options.dir, options.certName), 'utf8'),
    readFile(join(options.dir, options.keyName), 'utf8'),
  ]);
  // Throws when the key does not belong to the certificate or either is not PEM.
  createSecureContext({ cert, key });
  return { cert, key };
}
