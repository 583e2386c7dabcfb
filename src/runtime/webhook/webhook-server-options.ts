import type { Registry } from 'prom-client';
import { silentLogger, type Logger } from '../log/logger.ts';
import { metricsRegistry } from '../metrics/registry.ts';

/** What a {@link WebhookServer} takes. Durations are in milliseconds. */
export interface WebhookServerOptions {
  /** TCP port; 0 picks a free one. Default: 9443, as controller-runtime. */
  port?: number;
  /** Interface to bind. Default: all interfaces. */
  host?: string;
  /**
   * Folder holding the serving certificate and key (a mounted Secret), re-read when its files
   * change. Default: none: a local certificate authority and a serving certificate for
   * `localHosts` are generated, for running the webhooks outside the cluster.
   */
  certDir?: string;
  /** Default: 'tls.crt'. */
  certName?: string;
  /** Default: 'tls.key'. */
  keyName?: string;
  /**
   * The CA certificate in `certDir` that callers should trust, as a TLS Secret from cert-manager
   * carries it; without the file, `caBundle` is the served certificate chain. Default: 'ca.crt'.
   */
  caName?: string;
  /** How often `certDir` is re-read besides being watched. Default: 10 000. */
  certPollInterval?: number;
  /** Names and addresses the generated certificate is valid for. Default: localhost, 127.0.0.1, ::1. */
  localHosts?: readonly string[];
  /** Larger request bodies are refused with 413. Default: 7 MiB, as controller-runtime. */
  maxRequestBytes?: number;
  /** Where the controller_runtime_webhook_* metrics go. Default: `metricsRegistry`. */
  registry?: Registry;
  /** Default: a logger that writes nothing. */
  logger?: Logger;
}

export type ResolvedWebhookServerOptions = Required<Omit<WebhookServerOptions, 'host' | 'certDir'>> &
  Pick<WebhookServerOptions, 'host' | 'certDir'>;

/** The one place the defaults above are applied. */
export function resolveWebhookServerOptions(options: WebhookServerOptions): ResolvedWebhookServerOptions {
  return {
    ...options,
    port: options.port ?? 9443,
    certName: options.certName ?? 'tls.crt',
    keyName: options.keyName ?? 'tls.key',
    caName: options.caName ?? 'ca.crt',
    certPollInterval: options.certPollInterval ?? 10_000,
    localHosts: options.localHosts ?? ['localhost', '127.0.0.1', '::1'],
    maxRequestBytes: options.maxRequestBytes ?? 7 * 1024 * 1024,
    registry: options.registry ?? metricsRegistry,
    logger: options.logger ?? silentLogger,
  };
}
