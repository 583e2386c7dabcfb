import type { DiagnosticList, SourceLocation } from '../../markers/index.ts';
import { DiagnosticCodes } from '../../markers/index.ts';
import type { CustomResourceDefinition } from './custom-resource-definition.ts';

const KIB = 1024;
/** The API server's limit on all of an object's annotations together, keys and values. */
export const ANNOTATIONS_LIMIT = 256 * KIB;
/** Where a client-side `kubectl apply` keeps the object as it applied it. */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
/** etcd's default request limit, which bounds an object the API server can store. */
export const ETCD_REQUEST_LIMIT = 1.5 * KIB * KIB;
/** Warn this close to etcd's limit: the next field or version may not fit. */
const ETCD_MARGIN = 0.1;

/**
 * The bytes of a CRD's annotations once a client-side `kubectl apply -f` has added its
 * last-applied-configuration one: the key, the object as Go's JSON encoder writes it (`<`, `>`, `&`,
 * U+2028 and U+2029 escaped as `\u003c`..., a newline at the end), and the annotations the CRD
 * already carries, which the API server counts with it.
 */
export function lastAppliedAnnotationsBytes(crd: CustomResourceDefinition): number {
  const json = JSON.stringify(crd);
  const htmlEscapes = json.match(/[<>&]/g)?.length ?? 0;
  const separatorEscapes = json.match(/[\u2028\u2029]/g)?.length ?? 0;
  const value = Buffer.byteLength(json, 'utf8') + 5 * htmlEscapes + 3 * separatorEscapes + 1;
  const others = Object.entries(crd.metadata.annotations ?? {}).reduce(
    (sum, [key, text]) => sum + Buffer.byteLength(key, 'utf8') + Buffer.byteLength(text, 'utf8'),
    0,
  );
  return Buffer.byteLength(LAST_APPLIED, 'utf8') + value + others;
}

/**
 * Warns about a CRD too large for the ways it is applied: when the annotations a client-side
 * `kubectl apply -f` gives it pass 256 KiB, the API server refuses it (the annotation holds a copy of
 * the object); within 10 % of 1.5 MiB of JSON, etcd will soon refuse to store it.
 */
export function checkCrdSize(
  crd: CustomResourceDefinition,
  at: SourceLocation,
  diagnostics: DiagnosticList,
): void {
  const size = Buffer.byteLength(JSON.stringify(crd), 'utf8');
  const shrink =
    'shorten its descriptions with `crd.maxDescLen` in PROJECT (or `manifests --max-desc-len`), or serve fewer versions';
  const name = `CRD ${crd.metadata.name} is ${Math.round(size / KIB)} KiB as JSON`;
  if (size >= ETCD_REQUEST_LIMIT * (1 - ETCD_MARGIN)) {
    const where = size > ETCD_REQUEST_LIMIT ? 'over' : 'within 10 % of';
    const message = `${name}, ${where} etcd's 1.5 MiB limit on a stored object: ${shrink}`;
    diagnostics.warning(DiagnosticCodes.largeCrd, message, at);
  } else if (lastAppliedAnnotationsBytes(crd) > ANNOTATIONS_LIMIT) {
    const message =
      `${name}: a client-side \`kubectl apply -f\` copies it into an annotation, past the API server's ` +
      `256 KiB limit on annotations, and is refused: apply it with \`kubectl apply --server-side\`, or ${shrink}`;
    diagnostics.warning(DiagnosticCodes.largeCrd, message, at);
  }
}
