import { runCli } from '../../src/cli/main.ts';

/** Runs one `tsoperator` command in a project folder, as its user types it there. */
export type Tsoperator = (...args: string[]) => Promise<void>;

/**
 * The CLI of this checkout (its sources, no build needed), run in `project`: commands take the
 * folder they run in as the project, so the process moves there for each and back.
 */
export function tsoperatorIn(project: string): Tsoperator {
  return async (...args) => {
    process.stdout.write(`\n$ tsoperator ${args.join(' ')}\n`);
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
