import type { TestContext } from 'node:test';
import type { PageReport } from './book-run.ts';

/** Says, page by page, how many blocks a run of the book ran and which it did not, and why. */
export function reportBookRun(t: TestContext, reports: readonly PageReport[]): void {
  for (const { page, ran, notRun, seconds } of reports) {
    t.diagnostic(`${page}: ${ran} blocks run in ${seconds} s; not run: ${notRun.join(', ') || 'none'}`);
  }
}
