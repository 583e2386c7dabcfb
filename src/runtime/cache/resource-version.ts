/**
 * Whether resourceVersion `a` is at or after `b`. The API server's resourceVersions are etcd
 * revisions, decimal integers that only grow, and client-go's own comparisons read them so; any
 * other form is opaque, and then only equality says "at".
 */
export function isAtOrAfter(a: string | undefined, b: string): boolean {
  if (a === undefined || a === '') return false;
  if (a === b) return true;
  if (!DECIMAL.test(a) || !DECIMAL.test(b)) return false;
  // Same-length decimal strings without leading zeros compare as their numbers.
  return a.length === b.length ? a > b : a.length > b.length;
}

const DECIMAL = /^[1-9][0-9]*$/;
