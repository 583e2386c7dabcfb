/** What a reconcile is about: one object, by namespace (empty for cluster-scoped kinds) and name. */
export interface Request {
  readonly namespace: string;
  readonly name: string;
}

/** `namespace/name`, or `name` for a cluster-scoped object: the workqueue key of a request. */
export function requestKey(req: Request): string {
  return req.namespace ? `${req.namespace}/${req.name}` : req.name;
}

/** The request a workqueue key stands for. */
export function requestFromKey(key: string): Request {
  const slash = key.indexOf('/');
  return slash < 0
    ? { namespace: '', name: key }
    : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
