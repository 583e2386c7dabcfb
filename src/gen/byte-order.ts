/**
 * Compares two strings by their UTF-8 bytes, the order Go's `strings.Compare` and `slices.Sort`
 * use. JavaScript's default order (UTF-16 code units) differs for characters outside the BMP, and
 * output must sort exactly as controller-gen's does.
 *
 * @example
 * ['b', 'a'].sort(compareBytes); // ['a', 'b']
 */
export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** The distinct values of `values`, sorted by {@link compareBytes}. */
export function uniqueSorted(values: readonly string[]): string[] {
  return [...new Set(values)].sort(compareBytes);
}
