import type { KubeObject } from '../api/kube-object.ts';
import type { Kind } from '../client/kind.ts';

/**
 * How one spoke version converts to and from the hub version, as controller-runtime's
 * Convertible: `convertTo` turns a spoke object into a hub object, `convertFrom` the reverse. Both
 * get a copy they may change; `apiVersion`, `kind` and the metadata the API server does not let a
 * conversion change (all but labels and annotations) are set on the result for them.
 */
export interface SpokeConversion<Hub extends KubeObject, Spoke extends KubeObject> {
  convertTo(spoke: Spoke): Hub;
  convertFrom(hub: Hub): Spoke;
}

/** The spokes of a hub, by version: `{ v2: { convertTo, convertFrom } }`. */
export type SpokeConversions<Hub extends KubeObject, Spokes extends Record<string, KubeObject>> = {
  readonly [Version in keyof Spokes]: SpokeConversion<Hub, Spokes[Version]>;
};

/** A conversion that cannot be done: the ConversionReview answers Failure with this message. */
export class ConversionError extends Error {
  override readonly name = 'ConversionError';
}

/**
 * Converts one kind between any two of its versions through the hub: spoke → hub → spoke, so n
 * versions need n - 1 pairs of functions, not n².
 */
export class HubConverter {
  readonly #hub: Kind;
  readonly #spokes: ReadonlyMap<string, SpokeConversion<KubeObject, KubeObject>>;

  constructor(hub: Kind, spokes: Readonly<Record<string, SpokeConversion<KubeObject, KubeObject>>>) {
    if (Object.hasOwn(spokes, hub.version))
      throw new Error(`${hub.kind} ${hub.version} is the hub: it cannot also be a spoke`);
    this.#hub = hub;
    this.#spokes = new Map(Object.entries(spokes));
  }

  /** `WebApp.demo.example.org`: the group and kind this converter serves. */
  get groupKind(): string {
    return groupKindOf(this.#hub.group, this.#hub.kind);
  }

  /** `obj` as `desiredApiVersion`; an object already at that version is returned as it is. */
  convert(obj: KubeObject, desiredApiVersion: string): KubeObject {
    const from = this.#versionOf(obj.apiVersion ?? '');
    const to = this.#versionOf(desiredApiVersion);
    if (from === to) return obj;
    const hub = from === this.#hub.version ? obj : this.#toHub(from, obj);
    return to === this.#hub.version ? hub : this.#fromHub(to, hub);
  }

  #toHub(version: string, obj: KubeObject): KubeObject {
    const hub = this.#spoke(version).convertTo(structuredClone(obj));
    return {
      ...hub,
      apiVersion: this.#hub.apiVersion,
      kind: this.#hub.kind,
      metadata: keptMetadata(obj, hub),
    };
  }

  #fromHub(version: string, hub: KubeObject): KubeObject {
    const spoke = this.#spoke(version).convertFrom(structuredClone(hub));
    return {
      ...spoke,
      apiVersion: this.#apiVersion(version),
      kind: this.#hub.kind,
      metadata: keptMetadata(hub, spoke),
    };
  }

  #spoke(version: string): SpokeConversion<KubeObject, KubeObject> {
    const spoke = this.#spokes.get(version);
    if (!spoke) throw new ConversionError(`${this.groupKind} has no conversion for version ${version}`);
    return spoke;
  }

  #versionOf(apiVersion: string): string {
    const slash = apiVersion.lastIndexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    const version = apiVersion.slice(slash + 1);
    if (group !== this.#hub.group || (version !== this.#hub.version && !this.#spokes.has(version)))
      throw new ConversionError(`${this.groupKind} cannot be converted from or to ${apiVersion}`);
    return version;
  }

  #apiVersion(version: string): string {
    return this.#hub.group ? `${this.#hub.group}/${version}` : version;
  }
}

/**
 * The API server refuses a conversion that changes metadata other than labels and annotations:
 * the rest is the source's, so a conversion that forgets to copy it still works.
 */
function keptMetadata(source: KubeObject, converted: KubeObject): KubeObject['metadata'] {
  if (!converted.metadata) return source.metadata;
  const { labels, annotations } = converted.metadata;
  const metadata = { ...source.metadata };
  delete metadata.labels;
  delete metadata.annotations;
  return { ...metadata, ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) };
}

/** `WebApp.demo.example.org`, or `Pod` for the core group. */
export function groupKindOf(group: string, kind: string): string {
  return group ? `${kind}.${group}` : kind;
}
