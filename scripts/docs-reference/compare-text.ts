/**
 * Orders names case-insensitively, then exactly: the same order on every machine, whatever its
 * locale, so a regenerated page differs only where the code did.
 */
export function compareText(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
