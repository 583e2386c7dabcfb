import type { KubeObject } from '../api/kube-object.ts';
import type { Kind } from '../client/kind.ts';
import type { ListOptions } from '../client/options.ts';
import { ApiError } from '../client/api-error.ts';
import { LabelSelectorError, matchesLabels, type LabelSelector } from './label-selector.ts';
import { parseLabelSelector } from './label-selector-parser.ts';
import { NAMESPACE_INDEX, type StoreReader } from './store.ts';

/** The stored objects a list returns: its namespace, field selector (from indexes) and label selector. */
export function selectObjects<T extends KubeObject>(
  store: StoreReader<T>,
  kind: Kind,
  options: ListOptions,
): T[] {
  const found = candidates(store, kind, options);
  if (!options.labelSelector) return found;
  const selector = readLabelSelector(kind, options.labelSelector);
  return found.filter((obj) => matchesLabels(selector, obj.metadata?.labels));
}

/**
 * The label selector of a read from the cache; one the API server would refuse fails as there, with
 * a 400 BadRequest ApiError carrying the API server's message.
 */
export function readLabelSelector(kind: Kind, text: string): LabelSelector {
  try {
    return parseLabelSelector(text);
  } catch (err) {
    if (!(err instanceof LabelSelectorError)) throw err;
    const status = {
      kind: 'Status',
      status: 'Failure',
      reason: 'BadRequest',
      code: 400,
      message: err.message,
    } as const;
    throw new ApiError(400, status, `list ${kind.kind} from the cache, labelSelector=${text}`);
  }
}

/**
 * The stored objects a list returns before its label selector: from the narrowest index at hand,
 * then filtered by every field term and the namespace.
 */
function candidates<T extends KubeObject>(store: StoreReader<T>, kind: Kind, options: ListOptions): T[] {
  const namespace = kind.namespaced && options.namespace ? options.namespace : undefined;
  const terms = (options.fieldSelector ? parseFieldSelector(options.fieldSelector) : []).map(
    ([field, value]) => {
      const index = field === 'metadata.namespace' ? NAMESPACE_INDEX : field;
      if (field !== 'metadata.name' && !store.hasIndex(index)) {
        throw new Error(
          `No index for field "${field}" of ${kind.kind}: add one with cache.indexField(), or read with client.direct().`,
        );
      }
      return { index, value };
    },
  );
  if (namespace) terms.push({ index: NAMESPACE_INDEX, value: namespace });
  const indexed = terms.find((t) => t.index !== 'metadata.name');
  let found = indexed ? store.byIndex(indexed.index, indexed.value) : [...store.values()];
  for (const { index, value } of terms) {
    if (index === 'metadata.name') found = found.filter((o) => o.metadata?.name === value);
    else if (index !== indexed?.index || value !== indexed.value) {
      const hits = new Set(store.byIndex(index, value));
      found = found.filter((o) => hits.has(o));
    }
  }
  return found;
}

/** `a=b,c==d` into pairs; the cache answers equality only, as controller-runtime's. */
function parseFieldSelector(text: string): [string, string][] {
  return text.split(',').map((term) => {
    const match = /^\s*([^=!\s]+)\s*==?\s*(.*?)\s*$/.exec(term);
    if (!match)
      throw new Error(
        `The cache answers field selectors of the form field=value only, not "${term}": read with client.direct().`,
      );
    const [, field = '', value = ''] = match;
    return [field, value];
  });
}
