import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { TestContext } from 'node:test';
import { runBookPages, type PageReport } from '../support/book-run.ts';
import { repoRoot } from '../support/cli.ts';

const page = (path: string): string => join(repoRoot, 'docs', path);

/**
 * The pages a reader follows from start to end, each list run in one folder, in order: the
 * multi-version tutorial continues the CronJob tutorial's project. A tutorial joins its list when
 * its page is in the book.
 */
const RUNS: readonly { readonly name: string; readonly pages: readonly string[] }[] = [
  { name: 'the quick start', pages: [page('guide/quick-start.md')] },
  {
    name: 'the CronJob tutorial, then the multi-version tutorial',
    pages: [page('tutorial/cronjob.md'), page('tutorial/multiversion.md')].filter((p) => existsSync(p)),
  },
].filter((run) => run.pages.length > 0);

function report(t: TestContext, reports: readonly PageReport[]): void {
  for (const { page: name, ran, notRun, seconds } of reports) {
    t.diagnostic(`${name}: ${ran} blocks run in ${seconds} s; not run: ${notRun.join(', ') || 'none'}`);
  }
}

// A page's commands run as a reader copies them, against the control plane the page itself starts:
// a command that fails, or a check the page makes of what the operator did, fails here first.
describe('the book, run as printed', () => {
  for (const run of RUNS) {
    it(`runs ${run.name}`, async (t: TestContext) => {
      report(t, await runBookPages(run.pages));
    });
  }
});
