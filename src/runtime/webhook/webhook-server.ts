import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../api/kube-object.ts';
import type { Kind } from '../client/kind.ts';
import type { RunningServer } from '../server/http-server.ts';
import { startSecureServer } from '../server/secure-server.ts';
import { CertificateAuthority } from '../tls/certificate-authority.ts';
import { hostCoveredBy } from '../tls/certificate-host.ts';
import { fixedCertificate, type CertificateSource } from '../tls/certificate-source.ts';
import { CertificateWatcher } from '../tls/certificate-watcher.ts';
import { trustBundle } from '../tls/trust-bundle.ts';
import { parseAdmissionReview, type AdmissionHandler } from './admission-review.ts';
import { convertReview } from './conversion-handler.ts';
import { parseConversionReview } from './conversion-review.ts';
import { reviewResponse } from './review-envelope.ts';
import { HubConverter, type SpokeConversions } from './conversion.ts';
import { defaultingHandler, type CustomDefaulter } from './defaulter.ts';
import { readJsonRequest } from './json-request.ts';
import { MalformedRequestError } from './malformed-request-error.ts';
import { validatingHandler, type CustomValidator } from './validator.ts';
import { webhookMetrics, type WebhookMetrics } from './webhook-metrics.ts';
import { CONVERT_PATH, mutatePath, validatePath } from './webhook-paths.ts';
import {
  resolveWebhookServerOptions,
  type ResolvedWebhookServerOptions,
  type WebhookServerOptions,
} from './webhook-server-options.ts';

/** Where the API server calls a webhook: the `clientConfig` of a webhook configuration or a CRD. */
export interface WebhookClientConfig {
  readonly url: string;
  /** Base64 of the PEM CA bundle, as webhook configurations carry it. */
  readonly caBundle: string;
}

/**
 * The HTTPS server of a project's admission and conversion webhooks, as controller-runtime's
 * webhook server: defaulters on `/mutate-<group>-<version>-<kind>`, validators on
 * `/validate-...`, conversions on `/convert`. Register handlers, then `start`; the manager starts
 * its `webhookServer` when anything is registered on it.
 *
 * @example
 * ```ts
 * const server = new WebhookServer({ certDir: '/tmp/k8s-webhook-server/serving-certs' });
 * server.registerDefaulter(WebAppKind, { default: (app) => void (app.spec.replicas ??= 1) });
 * server.registerValidator(WebAppKind, new WebAppValidator());
 * server.registerConversion(WebAppKind, { v2: { convertTo: v2ToV1, convertFrom: v1ToV2 } });
 * const running = await server.start();
 * ```
 */
export class WebhookServer {
  readonly #options: ResolvedWebhookServerOptions;
  readonly #metrics: WebhookMetrics;
  readonly #admission = new Map<string, AdmissionHandler>();
  readonly #converters = new Map<string, HubConverter>();
  readonly #convertedKinds: Kind[] = [];
  #started: Promise<RunningServer> | undefined;
  #server: RunningServer | undefined;
  #certificateSource: CertificateSource | undefined;
  #caBundle: string | undefined;
  #url: string | undefined;

  constructor(options: WebhookServerOptions = {}) {
    this.#options = resolveWebhookServerOptions(options);
    this.#metrics = webhookMetrics(this.#options.registry);
  }

  /** Serves `defaulter` on the kind's mutate path, and returns the path. */
  registerDefaulter<T extends KubeObject>(kind: Kind<T>, defaulter: CustomDefaulter<T>): string {
    return this.register(mutatePath(kind), defaultingHandler(defaulter));
  }

  /** Serves `validator` on the kind's validate path, and returns the path. */
  registerValidator<T extends KubeObject>(kind: Kind<T>, validator: CustomValidator<T>): string {
    return this.register(validatePath(kind), validatingHandler(validator));
  }

  /**
   * Converts the kind of `hub` between its hub version and each spoke version on `/convert`, and
   * returns the path. The spokes' types are inferred from their functions.
   */
  registerConversion<Hub extends KubeObject, Spokes extends Record<string, KubeObject>>(
    hub: Kind<Hub>,
    spokes: SpokeConversions<Hub, Spokes>,
  ): string {
    const converter = new HubConverter(hub, spokes);
    if (this.#converters.has(converter.groupKind))
      throw new Error(`a conversion for ${converter.groupKind} is already registered`);
    this.#converters.set(converter.groupKind, converter);
    this.#convertedKinds.push(hub);
    return CONVERT_PATH;
  }

  /** Serves any admission handler on `path`, and returns the path. */
  register(path: string, handler: AdmissionHandler): string {
    if (this.#admission.has(path) || path === CONVERT_PATH)
      throw new Error(`a webhook is already registered on ${path}`);
    this.#admission.set(path, handler);
    return path;
  }

  /** Whether anything is registered: the manager starts the server only then. */
  get hasHandlers(): boolean {
    return this.#admission.size > 0 || this.#converters.size > 0;
  }

  /** Whether a defaulter, validator or other admission handler is registered. */
  get hasAdmissionHandlers(): boolean {
    return this.#admission.size > 0;
  }

  /** The paths this server answers on: its admission webhooks, and the conversion path. */
  get paths(): readonly string[] {
    return this.#paths();
  }

  /** The hub kind of each registered conversion: their CRDs are the ones converting on `/convert`. */
  get convertedKinds(): readonly Kind[] {
    return [...this.#convertedKinds];
  }

  /** `https://host:port` once started. */
  get url(): string | undefined {
    return this.#url;
  }

  /**
   * Once started, the PEM bundle a caller of this server should trust: the generated local CA, or
   * with `certDir` its `caName` file, else the certificate chain it serves (see trustBundle).
   */
  get caBundle(): string | undefined {
    return this.#caBundle;
  }

  /**
   * The `clientConfig` that makes an API server on this machine call `path` on this server. With
   * `certDir`, the URL names a loopback host the served certificate is valid for; a certificate
   * valid for none of them is an error, since the API server would refuse it.
   */
  clientConfig(path: string): WebhookClientConfig {
    const certificate = this.#certificateSource;
    if (!this.#url || !this.#server || !certificate || !this.#caBundle)
      throw new Error('the webhook server has not started: its URL is not known yet');
    const url = this.#options.certDir
      ? `https://${this.#localHostOf(certificate.current().cert)}:${this.#server.port}`
      : this.#url;
    return { url: `${url}${path}`, caBundle: Buffer.from(this.#caBundle).toString('base64') };
  }

  /**
   * Listens with the certificate of `certDir`, or a generated one; resolves once it listens. Starting
   * a started server returns the same server: `npm start` may start it first, to register the local
   * webhook configurations before the manager (which starts it too) runs the caches.
   */
  start(): Promise<RunningServer> {
    this.#started ??= this.#listen().catch((err: unknown) => {
      this.#started = undefined;
      throw err;
    });
    return this.#started;
  }

  /** Stops accepting connections and the certificate watch; resolves once the server is closed. */
  async close(): Promise<void> {
    await this.#started?.catch(() => undefined);
    await this.#server?.close();
  }

  async #listen(): Promise<RunningServer> {
    const { port, host, logger } = this.#options;
    const certificate = await this.#certificate();
    this.#certificateSource = certificate;
    const server = await startSecureServer((req, res) => this.#serve(req, res), {
      port,
      ...(host === undefined ? {} : { host }),
      certificate,
    });
    this.#server = server;
    this.#url = `https://${dialHost(host)}:${server.port}`;
    logger.info('serving webhooks', { url: this.#url, paths: this.#paths() });
    return { url: this.#url, port: server.port, close: () => this.close() };
  }

  async #certificate(): Promise<CertificateSource> {
    const { certDir, certName, keyName, caName, certPollInterval, logger, localHosts } = this.#options;
    if (certDir) {
      const watcher = await CertificateWatcher.start(certDir, {
        certName,
        keyName,
        pollInterval: certPollInterval,
        logger,
      });
      this.#caBundle = await trustBundle(certDir, caName, watcher.current().cert).catch((err: unknown) => {
        watcher.close();
        throw err;
      });
      return watcher;
    }
    const ca = CertificateAuthority.create('tsoperator-webhook-local-ca');
    this.#caBundle = ca.cert;
    return fixedCertificate(
      ca.issue({ commonName: 'tsoperator-webhook', usage: 'server', hosts: localHosts }),
    );
  }

  /** A host this server is reached at on this machine that `cert` is valid for, bracketed if IPv6. */
  #localHostOf(cert: string): string {
    const { host, certDir } = this.#options;
    const candidates = isWildcard(host) ? ['127.0.0.1', 'localhost', '::1'] : [host ?? ''];
    const covered = hostCoveredBy(cert, candidates);
    if (covered === undefined) {
      throw new Error(
        `the webhook certificate in ${certDir ?? ''} is valid for none of ${candidates.join(', ')}, where the API server would call this process: give a certificate for localhost, or no certificate folder to have one made`,
      );
    }
    return covered.includes(':') ? `[${covered}]` : covered;
  }

  #paths(): string[] {
    return [...this.#admission.keys(), ...(this.#converters.size ? [CONVERT_PATH] : [])];
  }

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'https://webhook').pathname;
    if (!this.#admission.has(path) && !(path === CONVERT_PATH && this.#converters.size)) {
      return sendJson(res, 404, failure(404, 'NotFound', `no webhook is registered on ${path}`));
    }
    const { inFlight, latency, requestsTotal } = this.#metrics;
    inFlight.inc({ webhook: path });
    const endTimer = latency.startTimer({ webhook: path });
    try {
      const [code, body] = await this.#answer(path, req);
      sendJson(res, code, body);
    } finally {
      inFlight.dec({ webhook: path });
      endTimer();
      requestsTotal.inc({ webhook: path, code: String(res.statusCode) });
    }
  }

  /** The HTTP code and body answering a request: a review's answer, or why the request is refused. */
  async #answer(path: string, req: IncomingMessage): Promise<[number, unknown]> {
    try {
      const body = await readJsonRequest(req, this.#options.maxRequestBytes);
      const handler = this.#admission.get(path);
      if (!handler) {
        const review = parseConversionReview(body);
        return [200, reviewResponse(review, convertReview(this.#converters, review))];
      }
      const review = parseAdmissionReview(body);
      return [200, reviewResponse(review, await handler(review.request))];
    } catch (err) {
      if (err instanceof MalformedRequestError) {
        this.#options.logger.debug('malformed webhook request', { path, reason: err.message });
        return [err.httpCode, failure(err.httpCode, err.reason, err.message)];
      }
      this.#options.logger.error('webhook failed', { path, err });
      return [500, failure(500, 'InternalError', err instanceof Error ? err.message : String(err))];
    }
  }
}

function failure(code: number, reason: string, message: string): object {
  return { apiVersion: 'v1', kind: 'Status', status: 'Failure', code, reason, message };
}

function sendJson(res: ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** The address clients dial: loopback for a wildcard bind. */
function dialHost(host: string | undefined): string {
  if (isWildcard(host)) return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** Whether the server listens on every interface. */
function isWildcard(host: string | undefined): host is undefined | '' | '0.0.0.0' | '::' {
  return !host || host === '0.0.0.0' || host === '::';
}
