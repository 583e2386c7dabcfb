import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeConfig, V1CustomResourceDefinition } from '@kubernetes/client-node';
import { resolveAssets, type AssetsSource } from './assets.ts';
import { CertificateAuthority, type CertKeyPair } from '../runtime/tls/certificate-authority.ts';
import { installCrds } from './crds.ts';
import { startEtcd, type Etcd } from './etcd.ts';
import { startKubeApiServer, type KubeApiServer } from './kube-apiserver.ts';
import {
  DEFAULT_CONTROLLERS,
  NODE_CONTROLLERS,
  startKubeControllerManager,
} from './kube-controller-manager.ts';
import { checkControllers, withNodeControllers } from './controller-selection.ts';
import { startKubeScheduler } from './kube-scheduler.ts';
import { startKwok } from './kwok.ts';
import { createFakeNodes, fakeNodeName } from './fake-nodes.ts';
import { missingBinaries, NODE_BINARIES } from './binaries.ts';
import { TsoperatorError } from '../errors.ts';
import { DEFAULT_KUBERNETES_VERSION } from './versions.ts';
import type { ClientTls } from './probe.ts';
import { kubeConfigFor } from './kubeconfig.ts';
import { Reaper, type ManagedProcess } from './process.ts';
import { retryOnPortConflict } from './ports.ts';

export interface EnvironmentOptions {
  /** Kubernetes version of the binaries. Default: DEFAULT_KUBERNETES_VERSION. */
  kubernetesVersion?: string;
  /** Folder holding the binaries. Default: resolveAssets() (KUBEBUILDER_ASSETS, cache, download, build). */
  binaryAssetsDir?: string;
  /** CRD files or folders to install before returning; each is Established and served. */
  crdPaths?: readonly string[];
  /**
   * Also start kube-controller-manager. `true` runs the controllers a cluster runs (its `*`: garbage
   * collector, namespaces, Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs, CronJobs,
   * endpoints, ...); `controllers` takes its `--controllers` entries instead: `*` for that set,
   * `name` to turn one on, `-name` to turn one off, the first entry naming a controller deciding,
   * e.g. `['*', '-horizontal-pod-autoscaler-controller']` or `['job-controller']`.
   * Default: false (no controller: a Deployment makes no ReplicaSet, a Job no Pod).
   */
  controllerManager?: boolean | { controllers?: readonly string[] };
  /**
   * Fake nodes for Pods to run on: starts kube-scheduler, kwok and kube-controller-manager (as
   * `controllerManager` says, with the node lifecycle, Pod garbage collector and service account
   * controllers in any case: see NODE_CONTROLLERS) and creates this many Nodes, `kwok-node-0`..., that kwok keeps Ready and whose Pods it
   * moves to Running and Ready, and a Job's Pods on to Succeeded. Default: 0 (Pods stay Pending).
   */
  nodes?: number;
  /** Extra kube-apiserver flags, e.g. `--default-watch-cache-size=0`. */
  apiServerArgs?: readonly string[];
  /** Extra etcd flags. */
  etcdArgs?: readonly string[];
  /**
   * Receives a line per step when the binaries are first downloaded or built (minutes, once per
   * machine). Default: each line to stderr after `envtest: `, where `node --test` shows it at once.
   */
  onProgress?: (line: string) => void;
  /**
   * Aborts the start, the wait for the binaries and their download or build included: every process
   * started so far is stopped, the folder removed, and `start()` rejects with the signal's reason.
   */
  signal?: AbortSignal;
}

/** An identity on the test API server: its KubeConfig and a kubeconfig file for child processes. */
export interface User {
  readonly name: string;
  readonly kubeConfig: KubeConfig;
  readonly kubeconfigPath: string;
}

/**
 * A running test control plane: etcd and kube-apiserver (and optionally kube-controller-manager, or
 * nodes run by kube-scheduler and kwok) on free loopback ports, with RBAC on. `admin` is in
 * system:masters; `addUser` makes identities with only the permissions RBAC grants them.
 */
export class Environment {
  readonly dir: string;
  readonly binDir: string;
  readonly admin: User;
  readonly #ca: CertificateAuthority;
  readonly #adminIdentity: CertKeyPair;
  readonly #reaper: Reaper;
  readonly #options: EnvironmentOptions;
  #etcd: Etcd;
  #apiServer: KubeApiServer;
  #controllerManager: ManagedProcess | undefined;
  #scheduler: ManagedProcess | undefined;
  #kwok: ManagedProcess | undefined;
  #nodeNames: readonly string[] = [];
  #stopped = false;

  private constructor(init: {
    dir: string;
    binDir: string;
    ca: CertificateAuthority;
    adminIdentity: CertKeyPair;
    reaper: Reaper;
    etcd: Etcd;
    apiServer: KubeApiServer;
    admin: User;
    options: EnvironmentOptions;
  }) {
    this.dir = init.dir;
    this.binDir = init.binDir;
    this.#ca = init.ca;
    this.#adminIdentity = init.adminIdentity;
    this.#reaper = init.reaper;
    this.#etcd = init.etcd;
    this.#apiServer = init.apiServer;
    this.admin = init.admin;
    this.#options = init.options;
  }

  /** Starts a control plane. Call `stop()` (or use `await using`) when done. */
  static async start(options: EnvironmentOptions = {}): Promise<Environment> {
    const signal = options.signal;
    signal?.throwIfAborted();
    // A mistyped list fails before the binaries are looked for, let alone built.
    controllersFor(options);
    const { dir: binDir, source } =
      options.binaryAssetsDir === undefined
        ? await resolveAssets({
            nodes: Boolean(options.nodes),
            signal,
            onProgress: options.onProgress ?? ((line) => process.stderr.write(`envtest: ${line}\n`)),
            ...(options.kubernetesVersion === undefined ? {} : { version: options.kubernetesVersion }),
          })
        : { dir: options.binaryAssetsDir, source: undefined };
    checkBinaries(binDir, options, source);
    const reaper = new Reaper();
    const dir = await mkdtemp(join(tmpdir(), 'tsoperator-envtest-'));
    reaper.watchDir(dir);
    const processes: ManagedProcess[] = [];
    let env: Environment | undefined;
    try {
      const ca = CertificateAuthority.create('tsoperator-envtest-ca');
      const adminIdentity = ca.issue({
        commonName: 'admin',
        organizations: ['system:masters'],
        usage: 'client',
      });
      const etcd = await retryOnPortConflict(() => startEtcd(binDir, dir, options.etcdArgs, reaper, signal));
      processes.push(etcd.process);
      const apiServer = await startApiServerWithRetry(
        binDir,
        dir,
        etcd.url,
        ca,
        adminIdentity,
        options.apiServerArgs,
        reaper,
        signal,
      );
      processes.push(apiServer.process);
      const admin = await writeUser(
        dir,
        'admin',
        kubeConfigFor(apiServer.url, ca.cert, 'admin', adminIdentity),
      );
      env = new Environment({
        dir,
        binDir,
        ca,
        adminIdentity,
        reaper,
        etcd,
        apiServer,
        admin,
        options,
      });
      if (options.controllerManager || options.nodes) await env.#startControllerManager();
      if (options.nodes) await env.#startNodes(options.nodes);
      if (options.crdPaths?.length) await env.installCrds(options.crdPaths);
      signal?.throwIfAborted();
      return env;
    } catch (err) {
      if (env) processes.push(...env.#nodeProcesses());
      for (const p of processes.reverse()) await p.stop();
      await rm(dir, { recursive: true, force: true });
      reaper.release();
      throw err;
    }
  }

  /** The API server's URL, `https://127.0.0.1:<port>`. */
  get server(): string {
    return this.#apiServer.url;
  }

  /** The admin KubeConfig (system:masters). */
  get kubeConfig(): KubeConfig {
    return this.admin.kubeConfig;
  }

  /** Path of the admin kubeconfig file, for child processes and kubectl. */
  get kubeconfigPath(): string {
    return this.admin.kubeconfigPath;
  }

  /** etcd's client URL, for tests that act on storage directly (compaction, for one). */
  get etcdUrl(): string {
    return this.#etcd.url;
  }

  /**
   * Stops etcd (SIGSTOP) until the function returned is called (SIGCONT): an API server whose
   * storage hangs, answering nothing while its connections stay open, as on a stalled disk.
   */
  pauseEtcd(): () => void {
    const pid = this.#etcd.process.pid;
    process.kill(pid, 'SIGSTOP');
    let paused = true;
    return () => {
      if (paused) process.kill(pid, 'SIGCONT');
      paused = false;
    };
  }

  /** An identity authenticated by a client certificate, with no permission beyond what RBAC binds to it. */
  async addUser(name: string, groups: readonly string[] = []): Promise<User> {
    const identity = this.#ca.issue({ commonName: name, organizations: groups, usage: 'client' });
    return writeUser(this.dir, name, kubeConfigFor(this.server, this.#ca.cert, name, identity));
  }

  /** Installs CRDs from files or folders and waits until they are Established and served. */
  async installCrds(paths: readonly string[]): Promise<V1CustomResourceDefinition[]> {
    return installCrds(this.kubeConfig, paths);
  }

  /**
   * Stops kube-apiserver (SIGKILL when `crash`, else SIGTERM) and starts it again on the same port,
   * with `extraArgs` replacing the start-time extra flags when given. etcd keeps its data.
   */
  async restartApiServer(
    options: { crash?: boolean; downtimeMs?: number; extraArgs?: readonly string[] } = {},
  ): Promise<void> {
    const old = this.#apiServer;
    await (options.crash ? old.process.kill() : old.process.stop());
    this.#reaper.forgetProcess(old.process.pid);
    if (options.downtimeMs) await new Promise((r) => setTimeout(r, options.downtimeMs));
    const port = Number(new URL(old.url).port);
    this.#apiServer = await startKubeApiServer({
      binDir: this.binDir,
      dir: this.dir,
      etcdUrl: this.#etcd.url,
      ca: this.#ca,
      admin: this.#adminIdentity,
      port,
      extraArgs: options.extraArgs ?? this.#options.apiServerArgs ?? [],
      reaper: this.#reaper,
    });
  }

  /** Stops every process this environment started and removes its folder. Safe to call twice. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    for (const p of this.#nodeProcesses().reverse()) await p.stop();
    await this.#apiServer.process.stop();
    await this.#etcd.process.stop();
    await rm(this.dir, { recursive: true, force: true });
    this.#reaper.release();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }

  /** PIDs of the processes this environment runs, for tests that check nothing is left behind. */
  get pids(): number[] {
    return [this.#etcd.process.pid, this.#apiServer.process.pid, ...this.#nodeProcesses().map((p) => p.pid)];
  }

  /** Names of the fake Nodes kwok runs, `kwok-node-0`...; empty without `nodes`. */
  get nodeNames(): readonly string[] {
    return this.#nodeNames;
  }

  #adminTls(): ClientTls {
    return { ca: this.#ca.cert, cert: this.#adminIdentity.cert, key: this.#adminIdentity.key };
  }

  /** The processes started after kube-apiserver, in start order. */
  #nodeProcesses(): ManagedProcess[] {
    return [this.#controllerManager, this.#scheduler, this.#kwok].filter((p) => p !== undefined);
  }

  async #startControllerManager(): Promise<void> {
    const controllers = controllersFor(this.#options);
    this.#controllerManager = await retryOnPortConflict(() =>
      startKubeControllerManager({
        binDir: this.binDir,
        kubeconfigPath: this.kubeconfigPath,
        serviceAccountKeyFile: this.#apiServer.serviceAccountKeyFile,
        caFile: this.#apiServer.caFile,
        tls: this.#adminTls(),
        controllers,
        reaper: this.#reaper,
        signal: this.#options.signal,
      }),
    );
  }

  async #startNodes(count: number): Promise<void> {
    this.#scheduler = await retryOnPortConflict(() =>
      startKubeScheduler({
        binDir: this.binDir,
        kubeconfigPath: this.kubeconfigPath,
        tls: this.#adminTls(),
        reaper: this.#reaper,
        signal: this.#options.signal,
      }),
    );
    this.#kwok = await retryOnPortConflict(() =>
      startKwok({
        binDir: this.binDir,
        kubeconfigPath: this.kubeconfigPath,
        dir: this.dir,
        reaper: this.#reaper,
        signal: this.#options.signal,
      }),
    );
    const names = Array.from({ length: count }, (_, i) => fakeNodeName(i));
    await createFakeNodes(this.kubeConfig, names, this.#kwok, this.#options.signal);
    this.#nodeNames = names;
  }
}

/** Shorthand for `Environment.start(options)`. */
export function startEnvironment(options: EnvironmentOptions = {}): Promise<Environment> {
  return Environment.start(options);
}

/** The `--controllers` entries of `options`; a malformed list is a UsageError. */
function controllersFor(options: EnvironmentOptions): string[] {
  const settings = typeof options.controllerManager === 'object' ? options.controllerManager : {};
  const entries = settings.controllers ?? DEFAULT_CONTROLLERS;
  checkControllers(entries);
  return options.nodes ? withNodeControllers(entries, NODE_CONTROLLERS) : [...entries];
}

/**
 * Fails before anything starts when `binDir` lacks a binary `options` need: a folder made where Go
 * was not has no kube-controller-manager, kube-scheduler or kwok, and only `nodes` needs the last two.
 */
function checkBinaries(binDir: string, options: EnvironmentOptions, source: AssetsSource | undefined): void {
  const wanted = [
    ...(options.controllerManager || options.nodes ? (['kube-controller-manager'] as const) : []),
    ...(options.nodes ? NODE_BINARIES : []),
  ];
  const missing = missingBinaries(binDir, wanted);
  if (missing.length === 0) return;
  throw new TsoperatorError(
    `${binDir} lacks ${missing.join(', ')}, which this environment runs: ${remedy(options, source)}.`,
  );
}

/** What obtains missing binaries: a folder the user chose is not one `envtest use` fills. */
function remedy(options: EnvironmentOptions, source: AssetsSource | undefined): string {
  if (source === undefined)
    return 'add them to that folder, or leave binaryAssetsDir out to let tsoperator obtain them';
  if (source === 'env')
    return 'add them to that folder, or unset KUBEBUILDER_ASSETS to let tsoperator obtain them';
  return `install Go (https://go.dev/dl) and run \`tsoperator envtest use ${options.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION}\` to build them`;
}

async function writeUser(dir: string, name: string, kubeConfig: KubeConfig): Promise<User> {
  const kubeconfigPath = join(dir, `${name.replace(/[^\w.-]/g, '_')}.kubeconfig`);
  await writeFile(kubeconfigPath, kubeConfig.exportConfig(), { mode: 0o600 });
  return { name, kubeConfig, kubeconfigPath };
}

/** A free port can be taken by another process before kube-apiserver binds it; try again then. */
function startApiServerWithRetry(
  binDir: string,
  dir: string,
  etcdUrl: string,
  ca: CertificateAuthority,
  admin: CertKeyPair,
  extraArgs: readonly string[] | undefined,
  reaper: Reaper,
  signal: AbortSignal | undefined,
): Promise<KubeApiServer> {
  return retryOnPortConflict(() =>
    startKubeApiServer({ binDir, dir, etcdUrl, ca, admin, extraArgs: extraArgs ?? [], reaper, signal }),
  );
}
