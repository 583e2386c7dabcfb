import { join } from 'node:path';
import { it } from 'node:test';
import type { TestContext } from 'node:test';
import { reportBookRun } from '../support/book-report.ts';
import { runBookPages } from '../support/book-run.ts';
import { repoRoot } from '../support/cli.ts';

// The two tutorials, as a reader follows them: the Multi-Version tutorial continues the CronJob
// tutorial's project, in the same folder. A file of its own, so that it runs beside the others.
it('runs the CronJob tutorial, then the Multi-Version tutorial, as printed', async (t: TestContext) => {
  const pages = ['cronjob.md', 'multiversion.md'].map((page) => join(repoRoot, 'docs', 'tutorial', page));
  reportBookRun(t, await runBookPages(pages));
});
