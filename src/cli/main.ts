import { CommanderError } from 'commander';
import { isTsoperatorError } from '../errors.ts';
import { createProgram } from './program.ts';

/**
 * Runs the CLI and returns the exit code: 0 ok, 1 failure, 2 usage. Errors a user can cause are
 * printed as one message; anything else is a bug and keeps its stack.
 */
export async function runCli(argv: readonly string[]): Promise<number> {
  const program = createProgram();
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (err) {
    return reportError(err);
  }
}

function reportError(err: unknown): number {
  if (err instanceof CommanderError) {
    // commander has already printed its message; --help and --version end here with code 0.
    return err.exitCode === 0 ? 0 : 2;
  }
  if (isTsoperatorError(err)) {
    process.stderr.write(`Error: ${err.message}\n`);
    return err.exitCode;
  }
  process.stderr.write(
    `Internal error (please report it): ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  return 1;
}
