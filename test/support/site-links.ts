import type { PageVisit } from './browser-tab.ts';
import { fileForPath } from './static-server.ts';

/**
 * The broken internal links of the visited pages: a link to the site's own origin whose path no
 * built file answers, or whose #fragment names no element of the page it leads to.
 */
export async function brokenLinks(
  root: string,
  origin: string,
  visits: readonly PageVisit[],
): Promise<string[]> {
  const idsByPage = new Map<string, ReadonlySet<string>>();
  for (const visit of visits) {
    const file: string | undefined = await fileForPath(root, new URL(visit.url).pathname);
    if (file !== undefined) idsByPage.set(file, visit.ids);
  }
  const broken: string[] = [];
  for (const visit of visits) {
    for (const link of new Set(visit.links)) {
      const target = new URL(link);
      if (target.origin !== origin) continue;
      const problem: string | undefined = await linkProblem(root, target, idsByPage);
      if (problem !== undefined) broken.push(`${visit.url} -> ${link}: ${problem}`);
    }
  }
  return broken;
}

async function linkProblem(
  root: string,
  target: URL,
  idsByPage: ReadonlyMap<string, ReadonlySet<string>>,
): Promise<string | undefined> {
  const file: string | undefined = await fileForPath(root, target.pathname);
  if (file === undefined) return 'no such page';
  if (target.hash === '' || target.hash === '#') return undefined;
  const ids: ReadonlySet<string> | undefined = idsByPage.get(file);
  // Only pages opened in the browser have their ids known; a link to an asset has no fragment.
  if (ids === undefined) return undefined;
  return ids.has(decodeURIComponent(target.hash.slice(1))) ? undefined : 'no such anchor';
}
