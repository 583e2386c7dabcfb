import type { Json } from '../api/json.ts';
import type { KubeObject } from '../api/kube-object.ts';
import { refuseMetadataOnlyWrite } from './partial-object-metadata.ts';
import type { RestConfigSource } from '../config/rest-config-source.ts';
import { ApiReader, type Reader } from './api-reader.ts';
import type { CacheReader, ReadScope } from './cache-reader.ts';
import type { Kind, KindRegistry } from './kind.ts';
import { kindRegistry } from './kinds.ts';
import { objectKey, type ObjectKey } from './object-key.ts';
import type {
  DeleteOptions,
  GetOptions,
  ListOptions,
  ObjectList,
  PatchOptions,
  WriteOptions,
} from './options.ts';
import { applyPatch, type Patch } from './patch.ts';
import { resourcePath, withQuery } from './resource-path.ts';
import { transportFor, type Transport } from './transport.ts';

/** What {@link newClient} takes. */
export interface ClientOptions {
  /** Where the API server is and who we are. Required unless `transport` is given. */
  readonly kubeConfig?: RestConfigSource;
  /**
   * Default: `transportFor(kubeConfig)`, whose requests time out after 30 s; give
   * `transportFor(kubeConfig, { requestTimeoutMs })` for another bound.
   */
  readonly transport?: Transport;
  /** When given, get and list read from it (read-your-writes included). Default: none, reads go to the API server. */
  readonly cache?: CacheReader;
  /**
   * Kinds read from the API server even with a cache, so that no informer holds them all (Secrets,
   * say), as controller-runtime's Cache.DisableFor. Default: none.
   */
  readonly uncachedKinds?: readonly Kind[];
  /** The field manager of every write. Default: `tsoperator`. */
  readonly fieldManager?: string;
  /** Where writes look up an object's kind. Default: `kindRegistry`. */
  readonly kinds?: KindRegistry;
  /**
   * How long a cached read waits for the cache to see the client's own earlier write before it
   * reads the API server instead, within the cache's namespaces and selectors (`apiFallback`).
   * Default: 2000 ms.
   */
  readonly readYourWritesTimeoutMs?: number;
  /**
   * Labels to set on each object this client creates, updates or applies, computed from it (a
   * shard's label on the objects its owner's reconciler makes, say). Default: none.
   */
  readonly writeLabels?: (obj: KubeObject) => Readonly<Record<string, string>> | undefined;
}

const CONTENT_TYPES: Record<Patch['type'], string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

/** Writes to the status subresource; each returns the object as the API server answered, as JSON. */
export interface StatusWriter {
  update<T extends KubeObject>(obj: T, options?: WriteOptions): Promise<Json<T>>;
  patch<T extends KubeObject>(obj: T, patch: Patch, options?: PatchOptions): Promise<Json<T>>;
}

/**
 * Reads and writes any kind, as controller-runtime's client. Reads come from the cache when the
 * client has one, and never return an object older than this client's own last write of it.
 * `get` returns undefined for a missing object; every other failure throws an {@link ApiError}.
 * What it returns is the API server's JSON (`Json<T>`: timestamps are RFC 3339 strings); what it
 * writes may hold a `Date` where a timestamp goes (written as metav1.Time, to the second).
 *
 * @example
 * ```ts
 * const client = newClient({ kubeConfig, cache });
 * const cm = await client.get(ConfigMapKind, { namespace: 'default', name: 'settings' });
 * if (cm) await client.update({ ...cm, data: { ...cm.data, mode: 'on' } });
 * ```
 */
export class Client implements Reader {
  readonly #transport: Transport;
  readonly #api: ApiReader;
  readonly #cache: CacheReader | undefined;
  readonly #uncached: ReadonlySet<Kind>;
  readonly #fieldManager: string;
  readonly #kinds: KindRegistry;
  readonly #readYourWritesTimeoutMs: number;
  readonly #writeLabels: ClientOptions['writeLabels'];

  constructor(options: ClientOptions) {
    const transport =
      options.transport ?? (options.kubeConfig ? transportFor(options.kubeConfig) : undefined);
    if (!transport) throw new Error('newClient needs a kubeConfig or a transport');
    this.#transport = transport;
    this.#api = new ApiReader(transport);
    this.#cache = options.cache;
    this.#uncached = new Set(options.uncachedKinds ?? []);
    this.#fieldManager = options.fieldManager ?? 'tsoperator';
    this.#kinds = options.kinds ?? kindRegistry;
    this.#readYourWritesTimeoutMs = options.readYourWritesTimeoutMs ?? 2000;
    this.#writeLabels = options.writeLabels;
  }

  /** A reader that always asks the API server, as controller-runtime's APIReader. */
  direct(): Reader {
    return this.#api;
  }

  async get<T extends KubeObject>(
    kind: Kind<T>,
    key: ObjectKey,
    options: GetOptions = {},
  ): Promise<Json<T> | undefined> {
    return (await this.#reader(kind, { key }, options.signal)).get(kind, key, options);
  }

  async list<T extends KubeObject>(kind: Kind<T>, options: ListOptions = {}): Promise<ObjectList<Json<T>>> {
    return (await this.#reader(kind, options, options.signal)).list(kind, options);
  }

  async listAll<T extends KubeObject>(kind: Kind<T>, options: ListOptions = {}): Promise<Json<T>[]> {
    return (await this.#reader(kind, options, options.signal)).listAll(kind, options);
  }

  /** Creates `obj` (apiVersion and kind set) and returns it as stored. */
  async create<T extends KubeObject>(obj: T, options: WriteOptions = {}): Promise<Json<T>> {
    refuseMetadataOnlyWrite(obj, 'create');
    const kind = this.#kinds.kindOf(obj);
    const path = resourcePath(kind, obj.metadata?.namespace);
    return this.#write(kind, 'POST', path, this.#labelled(obj), 'application/json', options);
  }

  /** Replaces `obj`; fails with a Conflict when its resourceVersion is not the stored one. */
  async update<T extends KubeObject>(obj: T, options: WriteOptions = {}): Promise<Json<T>> {
    return this.#update(obj, undefined, options);
  }

  /** Patches the object `obj` names (only its apiVersion, kind and metadata name/namespace are read). */
  async patch<T extends KubeObject>(obj: T, patch: Patch, options: PatchOptions = {}): Promise<Json<T>> {
    return this.#patch(obj, patch, undefined, options);
  }

  /**
   * Server-side apply: `obj` holds exactly the fields this manager owns. `options.force` takes
   * fields other managers own.
   */
  async apply<T extends KubeObject>(obj: T, options: PatchOptions = {}): Promise<Json<T>> {
    return this.#patch(obj, applyPatch(this.#labelled(obj)), undefined, options);
  }

  /** Deletes the object `obj` names; throws NotFound when it does not exist (see `ignoreNotFound`). */
  async delete(obj: KubeObject, options: DeleteOptions = {}): Promise<void> {
    const kind = this.#kinds.kindOf(obj);
    const key = objectKey(obj);
    const path = withQuery(resourcePath(kind, key.namespace, key.name), {
      dryRun: options.dryRun ? 'All' : undefined,
    });
    const body = {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      ...(options.propagationPolicy ? { propagationPolicy: options.propagationPolicy } : {}),
      ...(options.gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds: options.gracePeriodSeconds }),
      ...(options.preconditions ? { preconditions: options.preconditions } : {}),
      // In the body too: a DeleteOptions body overrides the query's dryRun.
      ...(options.dryRun ? { dryRun: ['All'] } : {}),
    };
    const answer = await this.#transport.request<KubeObject>({
      method: 'DELETE',
      path,
      body,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (options.dryRun) return;
    // A Status answer means the object is gone; an object marked for deletion (finalizers left,
    // a Pod's grace period, a Namespace's spec.finalizers) is still there in that state.
    const stays = answer.kind !== 'Status' && isBeingDeleted(answer);
    const uid = statusUid(answer) ?? answer.metadata?.uid ?? obj.metadata?.uid;
    const gone: KubeObject = {
      metadata: { name: key.name, namespace: key.namespace ?? '', ...(uid ? { uid } : {}) },
    };
    this.#cache?.noteWrite(kind, stays ? answer : gone, !stays);
  }

  /** Writes to the status subresource: only `.status` changes. */
  status(): StatusWriter {
    return {
      update: (obj, options = {}) => this.#update(obj, 'status', options),
      patch: (obj, patch, options = {}) => this.#patch(obj, patch, 'status', options),
    };
  }

  /** `obj` with the `writeLabels` it calls for, copied only when they change it. */
  #labelled<T extends KubeObject>(obj: T): T {
    const labels = this.#writeLabels?.(obj);
    if (!labels || Object.entries(labels).every(([k, v]) => obj.metadata?.labels?.[k] === v)) return obj;
    return { ...obj, metadata: { ...obj.metadata, labels: { ...obj.metadata?.labels, ...labels } } };
  }

  /** The cache, once it shows this client's writes that `read` could see; else the API server read as the cache would answer. */
  async #reader(kind: Kind, read: ReadScope, signal: AbortSignal | undefined): Promise<Reader> {
    if (!this.#cache || this.#uncached.has(kind)) return this.#api;
    const fresh = await this.#cache.waitForWrites(kind, read, this.#readYourWritesTimeoutMs, signal);
    return fresh ? this.#cache : this.#cache.apiFallback;
  }

  async #update<T extends KubeObject>(
    obj: T,
    subresource: string | undefined,
    options: WriteOptions,
  ): Promise<Json<T>> {
    refuseMetadataOnlyWrite(obj, 'update');
    const kind = this.#kinds.kindOf(obj);
    const key = objectKey(obj);
    return this.#write(
      kind,
      'PUT',
      resourcePath(kind, key.namespace, key.name, subresource),
      subresource ? obj : this.#labelled(obj),
      'application/json',
      options,
    );
  }

  async #patch<T extends KubeObject>(
    obj: T,
    patch: Patch,
    subresource: string | undefined,
    options: PatchOptions,
  ): Promise<Json<T>> {
    const kind = this.#kinds.kindOf(obj);
    const key = objectKey(obj);
    if (patch.type === 'strategic' && !kind.strategicMerge) {
      throw new Error(
        `${kind.kind} takes no strategic merge patch (custom resources do not): use a merge or JSON patch.`,
      );
    }
    const path = resourcePath(kind, key.namespace, key.name, subresource);
    const query: Record<string, boolean> = patch.type === 'apply' && options.force ? { force: true } : {};
    return this.#write(kind, 'PATCH', path, patch.body, CONTENT_TYPES[patch.type], options, query);
  }

  async #write<T extends KubeObject>(
    kind: Kind,
    method: 'POST' | 'PUT' | 'PATCH',
    path: string,
    body: unknown,
    contentType: string,
    options: WriteOptions,
    query: Record<string, boolean> = {},
  ): Promise<T> {
    const url = withQuery(path, {
      ...query,
      fieldManager: options.fieldManager ?? this.#fieldManager,
      dryRun: options.dryRun ? 'All' : undefined,
    });
    const answer = await this.#transport.request<T>({
      method,
      path: url,
      body,
      contentType,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (!options.dryRun) this.#cache?.noteWrite(kind, answer, deletedByWrite(answer));
    return answer;
  }
}

/** A client: see {@link Client}. */
export function newClient(options: ClientOptions): Client {
  return new Client(options);
}

function isBeingDeleted(answer: KubeObject): boolean {
  return Boolean(answer.metadata?.deletionTimestamp) || (answer.metadata?.finalizers?.length ?? 0) > 0;
}

/**
 * Whether a write's answer is the last state of an object the write deleted: the last finalizer
 * of an object marked for deletion was removed, and the API server deleted it rather than store
 * it (its shouldDeleteDuringUpdate: no grace period left, and for a Namespace no spec.finalizers).
 * The answer then carries the resourceVersion the object had, which the cache has already seen.
 */
function deletedByWrite(answer: KubeObject): boolean {
  const meta = answer.metadata;
  if (!meta?.deletionTimestamp || (meta.finalizers?.length ?? 0) > 0) return false;
  if ((meta.deletionGracePeriodSeconds ?? 0) > 0) return false;
  const spec = (answer as { spec?: { finalizers?: readonly string[] } }).spec;
  return !(answer.kind === 'Namespace' && (spec?.finalizers?.length ?? 0) > 0);
}

function statusUid(answer: KubeObject): string | undefined {
  return (answer as { details?: { uid?: string } }).details?.uid;
}
