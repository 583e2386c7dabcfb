import assert from 'node:assert/strict';
import { mkdir, readdir } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { describe, it } from 'node:test';
import type { TestContext } from 'node:test';
import { execa } from 'execa';
import { BrowserTab } from '../support/browser-tab.ts';
import type { PageVisit } from '../support/browser-tab.ts';
import { assertChromiumInstalled, launchChromium } from '../support/chromium.ts';
import { includeProblems } from '../support/docs-includes.ts';
import { brokenLinks } from '../support/site-links.ts';
import { serveFolder } from '../support/static-server.ts';

const checkout: string = join(import.meta.dirname, '..', '..');
const site: string = join(checkout, 'docs', '.vitepress', 'dist');
/** Git-ignored: to look at what the reader sees, not to compare. */
const screenshots: string = join(checkout, 'docs', '.screenshots');
/**
 * What VitePress 1.6 renders, in place of the code, for a `<<< @/...` snippet it cannot read: a
 * folder gives the second; the first is its message for a missing file, which today fails the build
 * instead (vitepress/dist/node, snippetPlugin).
 */
const SNIPPET_ERRORS: readonly string[] = ['Code snippet path not found', 'Invalid code snippet option'];
const SCREENSHOTS: Readonly<Record<string, string>> = {
  '/': 'home.png',
  '/guide/quick-start.html': 'quick-start.png',
  '/tutorial/cronjob.html': 'tutorial-cronjob.png',
};

/** The URL path of each HTML page the build wrote, as the site's own links spell it. */
async function builtPages(): Promise<string[]> {
  const files: string[] = await readdir(site, { recursive: true });
  return files
    .filter((file: string): boolean => file.endsWith('.html'))
    .map((file: string): string => `/${file.split(sep).join('/')}`.replace(/(^|\/)index\.html$/, '$1'))
    .sort();
}

describe('the book', () => {
  it('builds, and every page opens in Chromium with no HTTP error, broken link, missing include or console error', async (t: TestContext) => {
    // First, so that a machine without the browser fails at once, saying what to install.
    assertChromiumInstalled();
    // As `npm run docs:build`: the Runtime API pages first, from src/runtime's doc comments.
    await execa(process.execPath, [join(checkout, 'scripts', 'gen-docs-api.ts')], { cwd: checkout });
    await execa(join(checkout, 'node_modules', '.bin', 'vitepress'), ['build', 'docs'], { cwd: checkout });
    const pages: string[] = await builtPages();
    await using server = await serveFolder(site);
    await using chromium = await launchChromium();
    const tab: BrowserTab = await BrowserTab.open(chromium.devtools);
    await mkdir(screenshots, { recursive: true });

    const visits: PageVisit[] = [];
    for (const page of pages) {
      visits.push(await tab.visit(`${server.origin}${page}`));
      const screenshot: string | undefined = SCREENSHOTS[page];
      if (screenshot !== undefined) await tab.screenshot(join(screenshots, screenshot));
    }
    t.diagnostic(`opened ${visits.length} pages`);

    const problems: string[] = visits.flatMap((visit) =>
      visit.problems.map((problem) => `${visit.url}: ${problem}`),
    );
    assert.deepEqual(problems, [], 'a page or one of its assets failed, or logged an error');
    assert.deepEqual(await brokenLinks(site, server.origin, visits), [], 'a link leads nowhere');
    const unrendered: string[] = visits.flatMap((visit) =>
      SNIPPET_ERRORS.filter((error) => visit.text.includes(error)).map((error) => `${visit.url}: ${error}`),
    );
    assert.deepEqual(unrendered, [], 'a page shows an include VitePress could not read');
    assert.deepEqual(
      await includeProblems(join(checkout, 'docs')),
      [],
      'an include names a file or region that is not there (VitePress shows the whole file, or nothing)',
    );
    assert.equal(visits.length, pages.length, 'every page the build wrote was opened');
    assert.ok(
      Object.keys(SCREENSHOTS).every((page) => pages.includes(page)),
      `the home page, the quick start and the CronJob tutorial were built: ${pages.join(', ')}`,
    );
    assert.ok(
      pages.includes('/reference/runtime-api/') && pages.includes('/reference/runtime-api/client.html'),
      `the Runtime API's index and its pages were built: ${pages.join(', ')}`,
    );
  });
});
