import { runCli } from '../../src/cli/main.ts';

export interface CapturedRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the CLI in this process and captures what it prints. Only strings are captured: the test
 * runner reports to its parent process on this stdout too, in buffers, and may do so while a
 * command awaits (a git or API call): those pass through, or the runner would lose its results.
 */
export async function runCliCaptured(args: readonly string[]): Promise<CapturedRun> {
  let stdout = '';
  let stderr = '';
  const write = process.stdout.write.bind(process.stdout);
  const writeError = process.stderr.write.bind(process.stderr);
  const capture =
    (into: (text: string) => void, original: typeof write) =>
    (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      if (typeof chunk !== 'string') return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
      into(chunk);
      return true;
    };
  process.stdout.write = capture((text) => (stdout += text), write);
  process.stderr.write = capture((text) => (stderr += text), writeError);
  try {
    const code = await runCli(args);
    return { code, stdout, stderr };
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeError;
  }
}
