import { basename, resolve } from 'node:path';
import { UsageError } from '../errors.ts';
import { dns1123LabelProblems } from './dns.ts';

/**
 * The project name `init` takes when `--project-name` is not given: the folder's name, which must
 * already be a valid one (it names the Deployment and prefixes every resource).
 */
export function projectNameFromFolder(dir: string): string {
  const name = basename(resolve(dir));
  const problems = dns1123LabelProblems(name);
  if (problems.length > 0) {
    throw new UsageError(
      `the folder's name "${name}" is not a valid project name: it ${problems.join(' and ')}; pass --project-name with a DNS-1123 label, e.g. webapp-operator`,
    );
  }
  return name;
}
