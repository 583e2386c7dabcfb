/** `items` starting at the round's one, so that none always runs first (on the freshest API server). */
export function rotated<T>(items: readonly T[], round: number): T[] {
  const start = items.length === 0 ? 0 : round % items.length;
  return [...items.slice(start), ...items.slice(0, start)];
}
