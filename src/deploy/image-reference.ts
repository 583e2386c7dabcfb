import { UsageError } from '../errors.ts';

/** A container image reference split as kustomize's `images` entries and Helm values hold it. */
export interface ImageReference {
  /** Registry and repository, e.g. `ghcr.io/acme/webapp-operator` or `localhost:5000/op`. */
  readonly name: string;
  /** Default: 'latest' when no digest is given. */
  readonly tag?: string;
  /** `sha256:<hex>`, pinned instead of a tag. */
  readonly digest?: string;
}

/**
 * Splits `name[:tag][@digest]`. The tag is after the last colon only when no slash follows it, so a
 * registry's port (`localhost:5000/op`) stays in the name.
 *
 * @example
 * ```ts
 * parseImageReference('ghcr.io/acme/op:v1'); // { name: 'ghcr.io/acme/op', tag: 'v1' }
 * ```
 */
export function parseImageReference(reference: string): ImageReference {
  const [withTag = '', digest, ...rest] = reference.split('@');
  if (withTag === '' || rest.length > 0 || (digest !== undefined && !/^sha256:[0-9a-f]{64}$/.test(digest))) {
    throw new UsageError(`${reference} is not an image reference: write name[:tag] or name@sha256:<digest>`);
  }
  const colon = withTag.lastIndexOf(':');
  const hasTag = colon > withTag.lastIndexOf('/');
  const name = hasTag ? withTag.slice(0, colon) : withTag;
  const tag = hasTag ? withTag.slice(colon + 1) : undefined;
  if (name === '' || tag === '')
    throw new UsageError(`${reference} is not an image reference: its name or tag is empty`);
  if (digest !== undefined) return tag === undefined ? { name, digest } : { name, tag, digest };
  return { name, tag: tag ?? 'latest' };
}

/** The reference as a container's `image` field holds it. */
export function formatImageReference(image: ImageReference): string {
  return `${image.name}${image.tag === undefined ? '' : `:${image.tag}`}${image.digest === undefined ? '' : `@${image.digest}`}`;
}
