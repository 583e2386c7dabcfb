import { runCli } from '../../src/cli/main.ts';
import { tsoperatorVersion } from '../../src/version.ts';

/** Runs one `tsoperator` command in a project folder, as its user types it there. */
export type Tsoperator = (...args: string[]) => Promise<void>;

/**
 * The CLI of this checkout (its sources, no build needed), run in `project`: commands take the
 * folder they run in as the project, so the process moves there for each and back. `init` takes
 * tsoperator from the registry, as the published package writes it: run from a checkout, it would
 * write the checkout's folder (`file:`), a path of this machine, into the committed samples.
 */
export function tsoperatorIn(project: string): Tsoperator {
  return async (...given) => {
    const args = given[0] === 'init' ? [...given, '--tsoperator-dependency', `^${tsoperatorVersion()}`] : given;
    process.stdout.write(`\n$ tsoperator ${given.join(' ')}\n`);
    const back = process.cwd();
    process.chdir(project);
    try {
      const code = await runCli(args);
      if (code !== 0) throw new Error(`tsoperator ${args.join(' ')} exited with ${code.toString()}`);
    } finally {
      process.chdir(back);
    }
  };
}
