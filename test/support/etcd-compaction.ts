/**
 * Compacts etcd's history up to its current revision through etcd's HTTP/JSON gateway: watches
 * from an older resourceVersion then fail with 410 Gone (when the API server's watch cache does
 * not answer them itself).
 */
export async function compactEtcd(etcdUrl: string): Promise<number> {
  const range = await post(etcdUrl, '/v3/kv/range', { key: Buffer.from('\0').toString('base64') });
  const revision = (range as { header?: { revision?: string } }).header?.revision;
  if (!revision) throw new Error(`etcd answered no revision: ${JSON.stringify(range)}`);
  await post(etcdUrl, '/v3/kv/compaction', { revision, physical: true });
  return Number(revision);
}

async function post(etcdUrl: string, path: string, body: unknown): Promise<unknown> {
  const res = await fetch(new URL(path, etcdUrl), { method: 'POST', body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`etcd ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}
