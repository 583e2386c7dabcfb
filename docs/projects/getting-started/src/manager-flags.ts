/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import { parseArgs } from 'node:util';
import type { LogLevel } from './runtime/index.ts';

/** The manager's command line, as a Kubebuilder project's cmd/main.go takes it. */
export interface ManagerFlags {
  readonly kubeconfig: string;
  /** '' lets the manager choose: :8443, or :8080 when not secure. */
  readonly metricsBindAddress: string;
  readonly metricsSecure: boolean;
  readonly metricsCertPath: string;
  readonly metricsCertName: string;
  readonly metricsCertKey: string;
  readonly webhookPort: number;
  readonly webhookCertPath: string;
  readonly webhookCertName: string;
  readonly webhookCertKey: string;
  readonly webhookInstallLocal: boolean;
  readonly enableHttp2: boolean;
  readonly healthProbeBindAddress: string;
  readonly leaderElect: boolean;
  readonly logLevel: LogLevel;
  readonly logEncoder: LogEncoder;
}

/** `json`: one JSON object per line, for log collectors; `console`: lines for a person to read. */
export type LogEncoder = 'json' | 'console';

/** A command line the manager cannot run with; main.ts prints the message and exits 2. */
export class FlagError extends Error {
  override readonly name = 'FlagError';
}

interface FlagSpec {
  readonly type: 'string' | 'boolean';
  /** Shown by --help; '' shows none. */
  readonly default: string;
  readonly help: string;
}

const LOG_LEVELS: readonly LogLevel[] = ['error', 'warn', 'info', 'debug'];
const LOG_ENCODERS: readonly LogEncoder[] = ['json', 'console'];

const FLAGS = {
  kubeconfig: {
    type: 'string',
    default: '',
    help: 'Path to a kubeconfig. Default: $KUBECONFIG, then the in-cluster service account, then ~/.kube/config.',
  },
  'metrics-bind-address': {
    type: 'string',
    default: '',
    help: 'Address /metrics is served on: :8443 when secure, else :8080. 0 turns it off.',
  },
  'metrics-secure': {
    type: 'boolean',
    default: 'true',
    help: 'Serve /metrics over HTTPS to callers the API server authenticates and authorizes; false serves plain HTTP.',
  },
  'metrics-cert-path': {
    type: 'string',
    default: '',
    help: "Folder holding the metrics server's certificate and key, re-read when they change. Default: self-signed at start.",
  },
  'metrics-cert-name': { type: 'string', default: 'tls.crt', help: 'File name of the metrics certificate.' },
  'metrics-cert-key': { type: 'string', default: 'tls.key', help: 'File name of the metrics key.' },
  'webhook-port': { type: 'string', default: '9443', help: 'Port the webhook server listens on.' },
  'webhook-cert-path': {
    type: 'string',
    default: '',
    help: "Folder holding the webhooks' certificate and key, re-read when they change. Default: a local CA and certificate made at start.",
  },
  'webhook-cert-name': { type: 'string', default: 'tls.crt', help: 'File name of the webhook certificate.' },
  'webhook-cert-key': { type: 'string', default: 'tls.key', help: 'File name of the webhook key.' },
  'webhook-install-local': {
    type: 'boolean',
    default: 'false',
    help: "For a local API server (envtest): point config/webhook/manifests.yaml and the converted kinds' CRDs at this process, the CRDs until it exits. Never in a cluster.",
  },
  'enable-http2': {
    type: 'boolean',
    default: 'false',
    help: 'Let the metrics server speak HTTP/2 (off: HTTP/2 rapid reset, CVE-2023-44487).',
  },
  'health-probe-bind-address': {
    type: 'string',
    default: ':8081',
    help: 'Address /healthz and /readyz are served on. 0 turns them off.',
  },
  'leader-elect': {
    type: 'boolean',
    default: 'false',
    help: 'Reconcile only while holding the leader Lease, so that one replica of several is active.',
  },
  'zap-log-level': {
    type: 'string',
    default: '',
    help: `Lowest level logged: ${LOG_LEVELS.join(', ')}. Default: info, debug with --zap-devel.`,
  },
  'zap-encoder': {
    type: 'string',
    default: '',
    help: `Log line format: ${LOG_ENCODERS.join(', ')}. Default: json, console with --zap-devel.`,
  },
  'zap-devel': {
    type: 'boolean',
    default: 'false',
    help: 'Development logging (npm start sets it): console lines at debug, unless the two flags above say otherwise.',
  },
  help: { type: 'boolean', default: '', help: 'Print these flags and exit.' },
} as const satisfies Record<string, FlagSpec>;

type FlagName = keyof typeof FLAGS;
type FlagValues = Partial<Record<FlagName, string | boolean>>;

/** What a flag set to a boolean may say, as Go's strconv.ParseBool reads it. */
const TRUE_WORDS: ReadonlySet<string> = new Set(['true', 'True', 'TRUE', 't', 'T', '1']);
const FALSE_WORDS: ReadonlySet<string> = new Set(['false', 'False', 'FALSE', 'f', 'F', '0']);

/**
 * Reads the manager's flags from `args`. Booleans take `--x`, `--x=true|false` and `--no-x`; the
 * others `--x value` or `--x=value`; the last of a repeated flag wins. `undefined` means `--help`
 * was asked for.
 *
 * @example
 * ```ts
 * parseManagerFlags(['--leader-elect', '--metrics-secure=false'])?.metricsSecure; // false
 * ```
 */
export function parseManagerFlags(args: readonly string[]): ManagerFlags | undefined {
  const values = readFlagValues(args);
  if (values.help === true) return undefined;
  const devel = booleanFlag(values, 'zap-devel');
  const flags: ManagerFlags = {
    kubeconfig: stringFlag(values, 'kubeconfig'),
    metricsBindAddress: stringFlag(values, 'metrics-bind-address'),
    metricsSecure: booleanFlag(values, 'metrics-secure'),
    metricsCertPath: stringFlag(values, 'metrics-cert-path'),
    metricsCertName: stringFlag(values, 'metrics-cert-name'),
    metricsCertKey: stringFlag(values, 'metrics-cert-key'),
    webhookPort: portFlag(values, 'webhook-port'),
    webhookCertPath: stringFlag(values, 'webhook-cert-path'),
    webhookCertName: stringFlag(values, 'webhook-cert-name'),
    webhookCertKey: stringFlag(values, 'webhook-cert-key'),
    webhookInstallLocal: booleanFlag(values, 'webhook-install-local'),
    enableHttp2: booleanFlag(values, 'enable-http2'),
    healthProbeBindAddress: stringFlag(values, 'health-probe-bind-address'),
    leaderElect: booleanFlag(values, 'leader-elect'),
    logLevel: choiceFlag(values, 'zap-log-level', LOG_LEVELS, devel ? 'debug' : 'info'),
    logEncoder: choiceFlag(values, 'zap-encoder', LOG_ENCODERS, devel ? 'console' : 'json'),
  };
  return flags;
}

/** The flags of `args`; for --help prints them and exits 0, for a wrong flag says so and exits 2. */
export function managerFlagsOrExit(args: readonly string[]): ManagerFlags {
  try {
    const flags = parseManagerFlags(args);
    if (flags !== undefined) return flags;
    process.stdout.write(managerFlagsUsage());
    process.exit(0);
  } catch (err) {
    if (!(err instanceof FlagError)) throw err;
    process.stderr.write(`${err.message} (--help lists the flags)\n`);
    process.exit(2);
  }
}

/** The text of `--help`. */
export function managerFlagsUsage(): string {
  const lines = Object.entries(FLAGS).map(([name, spec]: [string, FlagSpec]) => {
    const value = spec.type === 'string' ? ' <value>' : '';
    const shown = spec.default === '' ? '' : ` (default: ${spec.default})`;
    return `  --${name}${value}\n      ${spec.help}${shown}`;
  });
  return `Usage: node src/main.ts [flags]\n\nFlags:\n${lines.join('\n')}\n`;
}

function readFlagValues(args: readonly string[]): FlagValues {
  const options = Object.fromEntries(
    Object.entries(FLAGS).map(([name, spec]) => [name, { type: spec.type }]),
  ) as Record<FlagName, { type: 'string' | 'boolean' }>;
  // Not strict: parseArgs refuses `--x=false` for a boolean; the tokens are checked here instead.
  const { tokens } = parseArgs({
    args: args.map(goStyle),
    options: { ...options, help: { type: 'boolean', short: 'h' } },
    strict: false,
    allowNegative: true,
    tokens: true,
  });
  const values: FlagValues = {};
  for (const token of tokens) {
    if (token.kind === 'positional') throw new FlagError(`unexpected argument "${token.value}"`);
    if (token.kind !== 'option') continue;
    const name = token.name as FlagName;
    const spec: FlagSpec | undefined = Object.hasOwn(FLAGS, name) ? FLAGS[name] : undefined;
    if (spec === undefined) throw new FlagError(`unknown flag ${token.rawName}`);
    values[name] = tokenValue(spec, token.rawName, token.value);
  }
  return values;
}

/** Go's flag package takes `-leader-elect` as `--leader-elect`: so do these flags. */
function goStyle(arg: string): string {
  return /^-[a-z][a-z0-9-]+/.test(arg) ? `-${arg}` : arg;
}

function tokenValue(spec: FlagSpec, rawName: string, value: string | undefined): string | boolean {
  const negated = rawName.startsWith('--no-');
  if (spec.type === 'string') {
    if (negated)
      throw new FlagError(`unknown flag ${rawName}: ${rawName.replace('--no-', '--')} takes a value`);
    if (value === undefined) throw new FlagError(`flag ${rawName} needs a value`);
    return value;
  }
  if (value === undefined) return !negated;
  if (TRUE_WORDS.has(value)) return true;
  if (FALSE_WORDS.has(value)) return false;
  throw new FlagError(`flag ${rawName} is true or false, not "${value}"`);
}

function stringFlag(values: FlagValues, name: FlagName): string {
  const value = values[name];
  return typeof value === 'string' ? value : FLAGS[name].default;
}

function booleanFlag(values: FlagValues, name: FlagName): boolean {
  const value = values[name];
  return typeof value === 'boolean' ? value : FLAGS[name].default === 'true';
}

function portFlag(values: FlagValues, name: FlagName): number {
  const text = stringFlag(values, name);
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535)
    throw new FlagError(`flag --${name} is a port (0-65535), not "${text}"`);
  return port;
}

function choiceFlag<T extends string>(
  values: FlagValues,
  name: FlagName,
  choices: readonly T[],
  fallback: T,
): T {
  const value = values[name];
  if (typeof value !== 'string') return fallback;
  const choice = choices.find((c) => c === value);
  if (choice === undefined)
    throw new FlagError(`flag --${name} is one of ${choices.join(', ')}, not "${value}"`);
  return choice;
}
