import type { KubeObject } from '../api/kube-object.ts';

/**
 * A kind described once: where it is served and how it is named. `T` is its TypeScript type: what
 * you write (a client-node model such as `V1Deployment`, or your CRD's interface); reads return it
 * as JSON, so `client.get(DeploymentKind, key)` returns a `Json<V1Deployment>`, whose timestamps
 * are strings.
 */
export interface Kind<T extends KubeObject = KubeObject> {
  /** `group/version`, or `v1` for the core group. */
  readonly apiVersion: string;
  readonly kind: string;
  /** The lower-case plural resource name, e.g. `deployments`. */
  readonly plural: string;
  readonly namespaced: boolean;
  /** The API group; empty for the core group. */
  readonly group: string;
  readonly version: string;
  /** Whether the API server accepts strategic merge patches for it (built-in kinds only). */
  readonly strategicMerge: boolean;
  /** Carries `T` for inference only; never set. */
  readonly __type?: T;
}

/** What {@link defineKind} takes. */
export interface KindDefinition {
  readonly apiVersion: string;
  readonly kind: string;
  readonly plural: string;
  readonly namespaced: boolean;
  /** Default: false (custom resources do not take strategic merge patches). */
  readonly strategicMerge?: boolean;
}

/**
 * Describes a kind and registers it in {@link kindRegistry}, so that writes find it from an
 * object's `apiVersion` and `kind`.
 *
 * @example
 * ```ts
 * export const WebAppKind = defineKind<WebApp>({
 *   apiVersion: 'demo.example.org/v1', kind: 'WebApp', plural: 'webapps', namespaced: true,
 * });
 * ```
 */
export function defineKind<T extends KubeObject>(
  definition: KindDefinition,
  registry: KindRegistry = kindRegistry,
): Kind<T> {
  const slash = definition.apiVersion.indexOf('/');
  const kind: Kind<T> = Object.freeze({
    apiVersion: definition.apiVersion,
    kind: definition.kind,
    plural: definition.plural,
    namespaced: definition.namespaced,
    group: slash < 0 ? '' : definition.apiVersion.slice(0, slash),
    version: slash < 0 ? definition.apiVersion : definition.apiVersion.slice(slash + 1),
    strategicMerge: definition.strategicMerge ?? false,
  });
  registry.register(kind);
  return kind;
}

/** The kinds a client knows by `apiVersion` and `kind`: the counterpart of controller-runtime's Scheme. */
export class KindRegistry {
  readonly #kinds = new Map<string, Kind>();

  register(kind: Kind): void {
    this.#kinds.set(`${kind.apiVersion}/${kind.kind}`, kind);
  }

  /** The kind of an object; throws when it was never defined, saying how to fix it. */
  kindOf(obj: KubeObject): Kind {
    const found = this.#kinds.get(`${obj.apiVersion}/${obj.kind}`);
    if (found) return found;
    throw new Error(
      `Unknown kind ${obj.apiVersion ?? '<no apiVersion>'} ${obj.kind ?? '<no kind>'}: set apiVersion and kind on the object and describe the kind once with defineKind().`,
    );
  }
}

/** The registry `defineKind` registers in by default; the predefined core kinds are in it. */
export const kindRegistry: KindRegistry = new KindRegistry();
