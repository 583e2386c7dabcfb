import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { TestContext } from 'node:test';
import { reportBookRun } from '../support/book-report.ts';
import { runBookPages } from '../support/book-run.ts';
import { repoRoot } from '../support/cli.ts';

const page = (path: string): string => join(repoRoot, 'docs', path);

// A page's commands run as a reader copies them, against the control plane the page itself starts:
// a command that fails, or a check the page makes of what the operator did, fails here first. The
// tutorials, which run longest, are in book-tutorials.test.ts, to run beside these.
describe('the book, run as printed', () => {
  for (const [name, file] of [
    ['the quick start', 'guide/quick-start.md'],
    ['Getting started', 'tutorial/getting-started.md'],
  ] as const) {
    it(`runs ${name}`, async (t: TestContext) => {
      reportBookRun(t, await runBookPages([page(file)]));
    });
  }
});
