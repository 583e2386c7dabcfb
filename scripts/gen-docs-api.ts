// Generates the book's Runtime API pages from the runtime's entry point, src/runtime/index.ts, and
// the doc comments of what it exports, with TypeDoc and its Markdown and VitePress themes: one
// page per concept (the runtime's folders) and an index of every export. The pages go to
// docs/reference/runtime-api/, which git ignores: `npm run docs:build` and `docs:dev` write them
// afresh, so they cannot go stale and no change to a doc comment needs a regenerated page in its
// commit. `--out <dir>` writes them elsewhere.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Application, LogLevel } from 'typedoc';
import type { ProjectReflection, TypeDocOptions } from 'typedoc';
import type { PluginOptions as MarkdownOptions } from 'typedoc-plugin-markdown';
import { groupByConcept } from './docs-api/concept-modules.ts';
import { readEntryPointComments, type EntryPointComments } from './docs-api/entry-point-comments.ts';
import { writeIndexPage } from './docs-api/index-page.ts';
import { undocumentedExports } from './docs-api/undocumented-exports.ts';

const repo = join(import.meta.dirname, '..');
const entryPoint = join(repo, 'src', 'runtime', 'index.ts');
const docsRoot = join(repo, 'docs');
const defaultOut = join(docsRoot, 'reference', 'runtime-api');

/** The options typedoc-vitepress-theme declares, which its package does not export a type for. */
interface VitePressThemeOptions {
  readonly docsRoot: string;
  readonly sidebar: { readonly autoConfiguration: boolean };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string', default: defaultOut } } });
  const options: Partial<TypeDocOptions> & Partial<MarkdownOptions> & VitePressThemeOptions = {
    entryPoints: [entryPoint],
    tsconfig: join(repo, 'tsconfig.build.json'),
    plugin: ['typedoc-plugin-markdown', 'typedoc-vitepress-theme'],
    out: resolve(values.out),
    docsRoot,
    // The config lists the pages itself, as it does the other reference pages.
    sidebar: { autoConfiguration: false },
    readme: 'none',
    outputFileStrategy: 'modules',
    parametersFormat: 'table',
    interfacePropertiesFormat: 'table',
    classPropertiesFormat: 'table',
    typeAliasPropertiesFormat: 'table',
    typeDeclarationFormat: 'table',
    useCodeBlocks: true,
    excludePrivate: true,
    // Members inherited from the standard library (an Error's `stack`) are the platform's to describe.
    excludeExternals: true,
    excludeInternal: true,
    // Types the exports mention but the entry point does not export are named, unlinked; whether
    // to export them is the runtime's call, not the book's.
    validation: { notDocumented: false, notExported: false, invalidLink: true },
    logLevel: LogLevel.Warn,
  };
  const app: Application = await Application.bootstrapWithPlugins(options);
  const comments: EntryPointComments = readEntryPointComments(entryPoint);
  groupByConcept(app, comments.concepts);
  writeIndexPage(app, {
    title: 'Runtime API',
    note: '_Generated from the doc comments of `src/runtime/index.ts` by `node scripts/gen-docs-api.ts` when the book is built: edit the comments, not this page._',
    introduction: `${comments.introduction} Every export of the package \`tsoperator\`, by concept (the folder of \`src/runtime\` it comes from), with the first paragraph of its doc comment.`,
    readNext: '[The runtime library](../../guide/runtime.md), the guide to these exports.',
  });
  const project: ProjectReflection | undefined = await app.convert();
  if (project === undefined || app.logger.hasErrors()) process.exit(1);
  // An export without a doc comment fails the build: its page is the reader's only description.
  const undocumented: string[] = undocumentedExports(project);
  if (undocumented.length > 0) {
    console.error(
      `These exports of src/runtime/index.ts have no doc comment; write one:\n  ${undocumented.join('\n  ')}`,
    );
    process.exit(1);
  }
  app.validate(project);
  if (app.logger.hasErrors()) process.exit(1);
  await app.generateOutputs(project);
  if (app.logger.hasErrors()) process.exit(1);
}

await main();
