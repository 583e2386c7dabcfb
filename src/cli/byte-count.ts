import { InvalidArgumentError } from 'commander';

/** A `--max-desc-len` value: a whole number of bytes, -1 for no limit, as controller-gen reads it. */
export function parseByteCount(value: string): number {
  if (!/^-?\d+$/.test(value))
    throw new InvalidArgumentError('expected a whole number of bytes, e.g. 0 or 200');
  return Number(value);
}
