import { createInterface } from 'node:readline/promises';

/**
 * Asks a y/n question on the terminal, `suggested` being the answer to Enter; without a terminal
 * (CI, pipes, tests) asks nothing and returns undefined, leaving the choice to the defaults, as
 * Kubebuilder's create api does for --controller.
 */
export async function askYesNo(question: string, suggested: boolean): Promise<boolean | undefined> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) return undefined;
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = (await rl.question(`${question} [${suggested ? 'Y/n' : 'y/N'}] `)).trim().toLowerCase();
    return answer === '' ? suggested : answer.startsWith('y');
  } finally {
    rl.close();
  }
}
