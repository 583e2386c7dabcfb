/**
 * The message of a thrown value, for logs, events and answers: an Error's `message`, anything else
 * as `String(value)` would give it. Never throws, where `String` does on objects without a
 * prototype or with a throwing `toString`: formatting a failure must not replace it by another.
 *
 * @example
 * ```ts
 * errorMessage(new Error('bucket is locked')); // 'bucket is locked'
 * errorMessage(Object.create(null)); // '[object]'
 * ```
 */
export function errorMessage(err: unknown): string {
  try {
    return err instanceof Error ? String(err.message) : String(err);
  } catch {
    return `[${typeof err}]`;
  }
}
