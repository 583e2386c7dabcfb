import { InvalidArgumentError } from 'commander';

/**
 * The value of a boolean flag written Kubebuilder's way, `--resource=false`, as well as `--resource`
 * (commander passes no value then) and `--no-resource` (declared beside it).
 */
export function parseBooleanFlag(value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new InvalidArgumentError('expected true or false.');
}
