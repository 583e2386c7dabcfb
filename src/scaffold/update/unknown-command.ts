/**
 * Whether a CLI's failure output says it does not know the command, one of its options or the
 * plugin asked for: commander's `error: unknown command 'edit'` and `error: unknown option
 * '--plugins'`, and `--plugins`' own `unknown plugin`. An older version fails so on what a newer
 * one added, and only then.
 *
 * @example
 * ```ts
 * isUnknownToCli("error: unknown command 'edit'\n"); // true
 * ```
 */
export function isUnknownToCli(output: string): boolean {
  return /^error: unknown (command|option) '/m.test(output) || /--plugins: unknown plugin /.test(output);
}
