/**
 * The object the API server stored under `key` (e.g. `/registry/<group>/<plural>/<ns>/<name>`),
 * read from etcd's HTTP/JSON gateway: shows the version a custom resource is stored in. Custom
 * resources are stored as JSON; undefined when the key does not exist.
 */
export async function storedObject(
  etcdUrl: string,
  key: string,
): Promise<Record<string, unknown> | undefined> {
  const res = await fetch(new URL('/v3/kv/range', etcdUrl), {
    method: 'POST',
    body: JSON.stringify({ key: Buffer.from(key).toString('base64') }),
  });
  if (!res.ok) throw new Error(`etcd range ${key}: ${res.status} ${await res.text()}`);
  const { kvs } = (await res.json()) as { kvs?: { value: string }[] };
  const value = kvs?.[0]?.value;
  return value === undefined
    ? undefined
    : (JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as Record<string, unknown>);
}
