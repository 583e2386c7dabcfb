import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { load } from 'js-yaml';
import { errorMessage } from '../log/error-message.ts';

/**
 * A cluster entry of a kubeconfig file, with paths made absolute. Only the entries the chosen
 * context uses must be complete (as clientcmd checks them): a half-set cluster elsewhere in
 * ~/.kube/config does not stop the loading.
 */
export interface KubeconfigCluster {
  readonly server?: string;
  readonly certificateAuthority?: string;
  readonly certificateAuthorityData?: string;
  readonly insecureSkipTlsVerify?: boolean;
  readonly tlsServerName?: string;
  readonly proxyUrl?: string;
  /** `extensions[client.authentication.k8s.io/exec].extension`, handed to exec plugins. */
  readonly execExtension?: unknown;
}

/** An exec credential plugin (client.authentication.k8s.io). */
export interface KubeconfigExec {
  readonly apiVersion: string;
  /** Empty when the kubeconfig gives none: refused when the user is used. */
  readonly command: string;
  readonly args: readonly string[];
  readonly env: readonly { readonly name: string; readonly value: string }[];
  readonly installHint?: string;
  readonly provideClusterInfo: boolean;
  /** 'Never' | 'IfAvailable' | 'Always'; absent in v1beta1 means IfAvailable. */
  readonly interactiveMode?: string;
}

/** A user entry of a kubeconfig file, with paths made absolute. */
export interface KubeconfigUser {
  readonly clientCertificate?: string;
  readonly clientCertificateData?: string;
  readonly clientKey?: string;
  readonly clientKeyData?: string;
  readonly token?: string;
  readonly tokenFile?: string;
  readonly username?: string;
  readonly password?: string;
  readonly exec?: KubeconfigExec;
  /** Impersonate this user (`as`) and these groups (`as-groups`). */
  readonly impersonate?: string;
  readonly impersonateGroups: readonly string[];
  readonly impersonateUid?: string;
  /** `as-user-extra`: extra fields of the impersonated user. */
  readonly impersonateExtra: Readonly<Record<string, readonly string[]>>;
  /** The name of a legacy auth-provider (oidc, gcp, azure), which is refused with what to use. */
  readonly authProvider?: string;
}

export interface KubeconfigContext {
  readonly cluster: string;
  readonly user: string;
  readonly namespace?: string;
}

/** What a kubeconfig file holds, as maps by name; `file` says where each came from. */
export interface Kubeconfig {
  readonly clusters: ReadonlyMap<string, KubeconfigCluster>;
  readonly users: ReadonlyMap<string, KubeconfigUser>;
  readonly contexts: ReadonlyMap<string, KubeconfigContext>;
  readonly currentContext?: string;
  /** The files this was read from, first first. */
  readonly files: readonly string[];
}

/** A kubeconfig file that cannot be read or does not have a kubeconfig's shape. */
export class KubeconfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubeconfigError';
  }
}

/** Reads one kubeconfig file; relative paths in it are taken from the file's folder, as kubectl does. */
export function readKubeconfigFile(path: string): Kubeconfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new KubeconfigError(
      `kubeconfig ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(err)}`,
    );
  }
  return parseKubeconfig(text, path);
}

/** Parses kubeconfig YAML (or JSON); `path` names it in errors, relative paths are taken from `dir`. */
export function parseKubeconfig(text: string, path: string, dir = dirname(path)): Kubeconfig {
  let doc: unknown;
  try {
    doc = load(text);
  } catch (err) {
    throw new KubeconfigError(`kubeconfig ${path}: not YAML: ${errorMessage(err)}`);
  }
  if (doc === undefined || doc === null) doc = {};
  const reader = new FieldReader(path, dir);
  const root = reader.object(doc, '');
  return {
    clusters: reader.named(root, 'clusters', 'cluster', (c, at) => reader.cluster(c, at)),
    users: reader.named(root, 'users', 'user', (u, at) => reader.user(u, at)),
    contexts: reader.named(root, 'contexts', 'context', (c, at) => reader.context(c, at)),
    currentContext: reader.string(root, 'current-context', ''),
    files: [path],
  };
}

type Fields = Readonly<Record<string, unknown>>;

/** Reads typed fields, naming the offending one with its path when a value has the wrong type. */
class FieldReader {
  readonly #file: string;
  readonly #dir: string;

  constructor(file: string, dir: string) {
    this.#file = file;
    this.#dir = dir;
  }

  cluster(c: Fields, at: string): KubeconfigCluster {
    const server = this.string(c, 'server', at);
    const ext = this.namedExtension(c, at);
    return {
      server,
      certificateAuthority: this.path(c, 'certificate-authority', at),
      certificateAuthorityData: this.string(c, 'certificate-authority-data', at),
      insecureSkipTlsVerify: this.boolean(c, 'insecure-skip-tls-verify', at),
      tlsServerName: this.string(c, 'tls-server-name', at),
      proxyUrl: this.string(c, 'proxy-url', at),
      ...(ext === undefined ? {} : { execExtension: ext }),
    };
  }

  user(u: Fields, at: string): KubeconfigUser {
    const exec =
      u['exec'] === undefined || u['exec'] === null
        ? undefined
        : this.exec(this.object(u['exec'], `${at}.exec`), `${at}.exec`);
    const provider =
      u['auth-provider'] === undefined || u['auth-provider'] === null
        ? undefined
        : this.object(u['auth-provider'], `${at}.auth-provider`);
    const providerName = provider ? (this.string(provider, 'name', `${at}.auth-provider`) ?? '') : undefined;
    // client-node's KubeConfig.loadFromCluster writes its token file as an auth-provider of its own.
    const providerTokenFile =
      provider && providerName === 'tokenFile'
        ? this.path(
            this.object(provider['config'] ?? {}, `${at}.auth-provider.config`),
            'tokenFile',
            `${at}.auth-provider.config`,
          )
        : undefined;
    return {
      clientCertificate: this.path(u, 'client-certificate', at),
      clientCertificateData: this.string(u, 'client-certificate-data', at),
      clientKey: this.path(u, 'client-key', at),
      clientKeyData: this.string(u, 'client-key-data', at),
      token: this.string(u, 'token', at),
      tokenFile: this.path(u, 'tokenFile', at) ?? providerTokenFile,
      username: this.string(u, 'username', at),
      password: this.string(u, 'password', at),
      impersonate: this.string(u, 'as', at),
      impersonateGroups: this.list(u, 'as-groups', at).map((g, i) => {
        if (typeof g !== 'string') throw this.error(`${at}.as-groups[${i}]`, 'must be a string');
        return g;
      }),
      impersonateUid: this.string(u, 'as-uid', at),
      impersonateExtra: this.extra(u, at),
      exec,
      authProvider: providerTokenFile === undefined ? providerName : undefined,
    };
  }

  context(c: Fields, at: string): KubeconfigContext {
    return {
      cluster: this.string(c, 'cluster', at) ?? '',
      user: this.string(c, 'user', at) ?? '',
      namespace: this.string(c, 'namespace', at),
    };
  }

  exec(e: Fields, at: string): KubeconfigExec {
    const command = this.string(e, 'command', at) ?? '';
    const args = this.list(e, 'args', at).map((a, i) => {
      if (typeof a !== 'string') throw this.error(`${at}.args[${i}]`, 'must be a string');
      return a;
    });
    const env = this.list(e, 'env', at).map((v, i) => {
      const entry = this.object(v, `${at}.env[${i}]`);
      return {
        name: this.string(entry, 'name', `${at}.env[${i}]`) ?? '',
        value: this.string(entry, 'value', `${at}.env[${i}]`) ?? '',
      };
    });
    return {
      apiVersion: this.string(e, 'apiVersion', at) ?? '',
      // A command with a path separator is relative to the kubeconfig; a bare name is looked up on PATH.
      command: command.includes('/') && !isAbsolute(command) ? resolve(this.#dir, command) : command,
      args,
      env,
      installHint: this.string(e, 'installHint', at),
      provideClusterInfo: this.boolean(e, 'provideClusterInfo', at) ?? false,
      interactiveMode: this.string(e, 'interactiveMode', at),
    };
  }

  extra(u: Fields, at: string): Record<string, string[]> {
    const raw = u['as-user-extra'];
    if (raw === undefined || raw === null) return {};
    const extra = this.object(raw, `${at}.as-user-extra`);
    return Object.fromEntries(
      Object.keys(extra).map((key) => [
        key,
        this.list(extra, key, `${at}.as-user-extra`).map((v, i) => {
          if (typeof v !== 'string') throw this.error(`${at}.as-user-extra.${key}[${i}]`, 'must be a string');
          return v;
        }),
      ]),
    );
  }

  /** `name`/`<inner>` entries of a list, as kubeconfig lists clusters, users and contexts. */
  named<T>(
    root: Fields,
    list: string,
    inner: string,
    read: (fields: Fields, at: string) => T,
  ): Map<string, T> {
    const out = new Map<string, T>();
    this.list(root, list, '').forEach((item, i) => {
      const at = `${list}[${i}]`;
      const entry = this.object(item, at);
      const name = this.string(entry, 'name', at);
      if (!name) throw this.error(`${at}.name`, 'is required');
      // The first entry of a name wins, as in a merge of several files.
      if (!out.has(name))
        out.set(name, read(this.object(entry[inner] ?? {}, `${at}.${inner}`), `${at}.${inner}`));
    });
    return out;
  }

  namedExtension(c: Fields, at: string): unknown {
    const found = this.list(c, 'extensions', at)
      .map((e, i) => this.object(e, `${at}.extensions[${i}]`))
      .find((e) => e['name'] === 'client.authentication.k8s.io/exec');
    return found?.['extension'];
  }

  object(value: unknown, at: string): Fields {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw this.error(at || 'the file', 'must be a mapping');
    }
    return value as Fields;
  }

  list(fields: Fields, key: string, at: string): readonly unknown[] {
    const value = fields[key];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) throw this.error(join(at, key), 'must be a list');
    return value;
  }

  string(fields: Fields, key: string, at: string): string | undefined {
    const value = fields[key];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') throw this.error(join(at, key), 'must be a string');
    return value;
  }

  boolean(fields: Fields, key: string, at: string): boolean | undefined {
    const value = fields[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') throw this.error(join(at, key), 'must be true or false');
    return value;
  }

  path(fields: Fields, key: string, at: string): string | undefined {
    const value = this.string(fields, key, at);
    return value === undefined || isAbsolute(value) ? value : resolve(this.#dir, value);
  }

  error(at: string, what: string): KubeconfigError {
    return new KubeconfigError(`kubeconfig ${this.#file}: ${at} ${what}`);
  }
}

function join(at: string, key: string): string {
  return at ? `${at}.${key}` : key;
}
