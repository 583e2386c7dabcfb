import { createInterface } from 'node:readline/promises';

/**
 * Asks a y/n question on the terminal; without one (CI, pipes, tests) answers `fallback` without
 * asking, as Kubebuilder's create api does for --controller.
 */
export async function askYesNo(question: string, fallback: boolean): Promise<boolean> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) return fallback;
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = (await rl.question(`${question} [${fallback ? 'Y/n' : 'y/N'}] `)).trim().toLowerCase();
    return answer === '' ? fallback : answer.startsWith('y');
  } finally {
    rl.close();
  }
}
