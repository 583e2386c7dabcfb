import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { defineConfig } from 'vitepress';
import type { DefaultTheme, UserConfig } from 'vitepress';

/** One sidebar entry, as the default theme takes it. */
type SidebarLink = DefaultTheme.SidebarItem & { text: string; link: string };

const referenceFolder: string = join(import.meta.dirname, '..', 'reference');
/** Written by `node scripts/gen-docs-api.ts` when the book is built; git ignores it. */
const runtimeApiFolder: string = join(referenceFolder, 'runtime-api');

/** A page's title: its first `# ` heading, else its file name. */
function pageTitle(file: string): string {
  const heading: RegExpMatchArray | null = readFileSync(file, 'utf8').match(/^# (.+)$/m);
  return heading?.[1]?.trim() ?? basename(file, '.md');
}

/**
 * The reference pages are generated into docs/reference/ by the CLI's own metadata, so the sidebar
 * lists whichever of them exist rather than naming them: a listed page that is not there yet would
 * be a dead link.
 */
function referenceLinks(): SidebarLink[] {
  if (!existsSync(referenceFolder)) return [];
  return readdirSync(referenceFolder)
    .filter((name: string): boolean => name.endsWith('.md'))
    .sort()
    .map((name: string): SidebarLink => ({
      text: pageTitle(join(referenceFolder, name)),
      link: `/reference/${basename(name, '.md')}`,
    }));
}

/** The guide's pages in reading order: each one's "Read next" leads to the one after it. */
/**
 * The Runtime API: its index of every export, then one page per concept of the runtime, as the
 * generator wrote them. Absent (no entry) until it has run, as for the other reference pages.
 */
function runtimeApi(): DefaultTheme.SidebarItem | undefined {
  if (!existsSync(join(runtimeApiFolder, 'index.md'))) return undefined;
  const concepts: SidebarLink[] = readdirSync(runtimeApiFolder)
    .filter((name: string): boolean => name.endsWith('.md') && name !== 'index.md')
    .sort()
    .map((name: string): SidebarLink => ({
      text: basename(name, '.md'),
      link: `/reference/runtime-api/${basename(name, '.md')}`,
    }));
  return { text: 'Runtime API', link: '/reference/runtime-api/', collapsed: true, items: concepts };
}

const GUIDE: readonly SidebarLink[] = [
  { text: 'Quick start', link: '/guide/quick-start' },
  { text: 'Commands at a glance', link: '/guide/commands' },
  { text: 'Scaffolding and deleting APIs', link: '/guide/scaffolding' },
  { text: 'Reconcilers and their tests', link: '/guide/reconcilers' },
  { text: 'Webhooks', link: '/guide/webhooks' },
  { text: 'Manifests from types', link: '/guide/manifests' },
  { text: 'Compatibility checks', link: '/guide/compatibility' },
  { text: 'API conventions lint', link: '/guide/api-conventions' },
  { text: 'A control plane for tests', link: '/guide/envtest' },
  { text: 'The runtime library', link: '/guide/runtime' },
  { text: 'When things fail', link: '/guide/failures' },
  { text: 'Sharding', link: '/guide/sharding' },
  { text: 'A generated project', link: '/guide/generated-project' },
  { text: 'Deploying', link: '/guide/deploying' },
  { text: 'Upgrading a project', link: '/guide/upgrading' },
];

/** The tutorials, each a project built step by step, in the order they build on each other. */
const TUTORIALS: readonly SidebarLink[] = [
  { text: 'Getting started: Memcached', link: '/tutorial/getting-started' },
  { text: 'Tutorial: building CronJob', link: '/tutorial/cronjob' },
  { text: 'Tutorial: Multi-Version API', link: '/tutorial/multiversion' },
];

const CONTRIBUTING: readonly SidebarLink[] = [
  { text: 'Architecture', link: '/contributing/architecture' },
  { text: 'Benchmarks and layout', link: '/contributing/benchmarks' },
  { text: 'Writing runnable pages', link: '/contributing/runnable-pages' },
];

function sidebar(): DefaultTheme.SidebarItem[] {
  const sections: DefaultTheme.SidebarItem[] = [
    { text: 'Guide', items: [...GUIDE] },
    { text: 'Tutorials', items: [...TUTORIALS] },
    { text: 'Contributing', items: [...CONTRIBUTING] },
  ];
  const reference: DefaultTheme.SidebarItem[] = [...referenceLinks()];
  const api: DefaultTheme.SidebarItem | undefined = runtimeApi();
  if (api) reference.push(api);
  if (reference.length > 0) sections.splice(2, 0, { text: 'Reference', items: reference });
  return sections;
}

function nav(): DefaultTheme.NavItem[] {
  const items: DefaultTheme.NavItem[] = [
    { text: 'Guide', link: '/guide/quick-start' },
    { text: 'Tutorials', link: '/tutorial/getting-started' },
  ];
  const firstReference: SidebarLink | undefined = referenceLinks()[0];
  if (firstReference) items.push({ text: 'Reference', link: firstReference.link });
  items.push({ text: 'Contributing', link: '/contributing/architecture' });
  return items;
}

const config: UserConfig<DefaultTheme.Config> = defineConfig({
  title: 'tsoperator',
  description: 'Kubebuilder for TypeScript: scaffold, generate manifests for, and run Kubernetes operators.',
  // The site is served from wherever the built folder lands; no absolute base to keep in sync.
  base: '/',
  // The tutorial projects under projects/ are code the tutorial pages include, not pages: their
  // README.md files would otherwise be built as pages of the book.
  srcExclude: ['projects/**'],
  lastUpdated: false,
  // Without an icon link, browsers ask for /favicon.ico, which a static host answers with a 404.
  head: [['link', { rel: 'icon', type: 'image/svg+xml', href: '/favicon.svg' }]],
  themeConfig: {
    nav: nav(),
    sidebar: sidebar(),
    outline: 'deep',
    search: { provider: 'local' },
  },
});

// VitePress reads its configuration from this file's default export: an exception to the project's
// no-default-exports rule, granted in eslint.config.js as for ESLint's own configuration.
export default config;
