import type { DiagnosticList, SourceLocation } from '../../markers/index.ts';
import { DiagnosticCodes } from '../../markers/index.ts';
import type { CustomResourceDefinition } from './custom-resource-definition.ts';

const KIB = 1024;
/** The most a client-side `kubectl apply` may keep in its last-applied-configuration annotation. */
export const CLIENT_SIDE_APPLY_LIMIT = 256 * KIB;
/** etcd's default request limit, which bounds an object the API server can store. */
export const ETCD_REQUEST_LIMIT = 1.5 * KIB * KIB;
/** Warn this close to etcd's limit: the next field or version may not fit. */
const ETCD_MARGIN = 0.1;

/**
 * Warns about a CRD too large for the ways it is applied: past 256 KiB, `kubectl apply -f`
 * (client-side) refuses it, for it copies the object into an annotation; within 10 % of 1.5 MiB,
 * etcd will soon refuse to store it. Sizes are of the object's JSON, as both limits count it.
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
  } else if (size > CLIENT_SIDE_APPLY_LIMIT) {
    const message =
      `${name}, over the 256 KiB a client-side \`kubectl apply -f\` keeps in its last-applied annotation, ` +
      `which refuses it: apply it with \`kubectl apply --server-side\`, or ${shrink}`;
    diagnostics.warning(DiagnosticCodes.largeCrd, message, at);
  }
}
