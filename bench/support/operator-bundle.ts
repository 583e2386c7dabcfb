import { build } from 'esbuild';

/**
 * Bundles `entry` into `outfile` as a generated project's `npm run build:dist` does for its image
 * (the options of templates/init/package.json.ejs's `build:dist` script): one ES module for Node 24,
 * the packages left to node_modules, with a source map. Names are not kept (`--keep-names`): it
 * wraps every function as it is made, closures made per event included, which measured 141 MiB of
 * peak RSS on 1,000 WebApps against 115 MiB without.
 */
export async function bundleOperator(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    sourcemap: true,
    outfile,
    logLevel: 'warning',
  });
}
