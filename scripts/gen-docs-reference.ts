// Regenerates the book's reference pages under docs/reference/ from the code they describe: the
// marker registry, the CLI's commands, the diagnostic codes and the runtime's metrics. Run with
// `node scripts/gen-docs-reference.ts`; `--out <dir>` writes them elsewhere (the freshness test
// compares the two).
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as prettier from 'prettier';
import { createProgram } from '../src/cli/program.ts';
import { manifestGenerators } from '../src/gen/manifests.ts';
import { createMarkerRegistry } from '../src/markers/index.ts';
import { commandsPage } from './docs-reference/commands-page.ts';
import { errorsPage } from './docs-reference/errors-page.ts';
import { renderPage, type Page } from './docs-reference/markdown.ts';
import { markersPage } from './docs-reference/markers-page.ts';
import { metricsPage } from './docs-reference/metrics-page.ts';
import { describeMetrics, registerRuntimeMetrics } from './docs-reference/runtime-metrics.ts';

const repo = join(import.meta.dirname, '..');
const referenceDir = join(repo, 'docs', 'reference');

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string', default: referenceDir } } });
  const out = resolve(values.out);
  await mkdir(out, { recursive: true });
  for (const [file, page] of Object.entries(await referencePages())) {
    await writeFile(join(out, file), await formatted(file, renderPage(page)));
  }
}

/** Every page by file name. The registry is the one `tsoperator manifests` parses markers with. */
async function referencePages(): Promise<Record<string, Page>> {
  const registry = createMarkerRegistry(manifestGenerators.flatMap((generator) => generator.markers ?? []));
  return {
    'commands.md': commandsPage(createProgram()),
    'errors.md': errorsPage(registry),
    'markers.md': markersPage(registry.all()),
    'metrics.md': metricsPage(await describeMetrics(registerRuntimeMetrics())),
  };
}

/**
 * The page as the repository's Prettier writes it, configured for its place in docs/reference
 * wherever `--out` puts it, so the two copies compare equal and the committed one passes the check.
 */
async function formatted(file: string, markdown: string): Promise<string> {
  const filepath = join(referenceDir, file);
  const config = await prettier.resolveConfig(filepath, { editorconfig: true });
  return prettier.format(markdown, { ...config, filepath });
}

await main();
