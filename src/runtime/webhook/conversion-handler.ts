import type { KubeObject } from '../api/kube-object.ts';
import type { ConversionResponse, ConversionReview } from './conversion-review.ts';
import { groupKindOf, type HubConverter } from './conversion.ts';

/**
 * Converts every object of a review to its desired version with the converter of its group and
 * kind. One object that cannot be converted fails the whole review, as the API server expects.
 */
export function convertReview(
  converters: ReadonlyMap<string, HubConverter>,
  review: ConversionReview,
): ConversionResponse {
  try {
    const { objects, desiredAPIVersion } = review.request;
    const convertedObjects = objects.map((obj) =>
      converterOf(converters, obj).convert(obj, desiredAPIVersion),
    );
    return { convertedObjects, result: { status: 'Success' } };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { convertedObjects: [], result: { status: 'Failure', message } };
  }
}

function converterOf(converters: ReadonlyMap<string, HubConverter>, obj: KubeObject): HubConverter {
  const apiVersion = obj.apiVersion ?? '';
  const slash = apiVersion.lastIndexOf('/');
  const groupKind = groupKindOf(slash < 0 ? '' : apiVersion.slice(0, slash), obj.kind ?? '');
  const converter = converters.get(groupKind);
  if (!converter) throw new Error(`no conversion is registered for ${groupKind}`);
  return converter;
}
