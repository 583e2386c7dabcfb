#!/usr/bin/env node
// The Node version is checked before anything else is loaded: static imports all load before the
// first line runs, and on an older Node the CLI's dependencies fail with a stack trace instead of
// saying what is wrong. So this file imports only node:fs statically, and keeps to syntax that old
// Node versions parse (no top-level await, no optional chaining).
import { readFileSync } from 'node:fs';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const required = packageJson.engines.node;
const found = process.versions.node;

if (satisfies(found, required)) {
  import('node:module')
    .then((module) => {
      // V8 keeps the code it compiled between runs: compiling the TypeScript compiler that ts-morph
      // loads is most of a short command's time.
      if (module.enableCompileCache) module.enableCompileCache();
      return import('../dist/cli/main.js');
    })
    .then((cli) => cli.runCli(process.argv.slice(2)))
    .then((code) => {
      process.exitCode = code;
    });
} else {
  const wanted = minimum(required).join('.');
  process.stderr.write(
    `tsoperator needs Node.js ${required}, found ${found} (${process.execPath}): ` +
      `install Node.js ${wanted} or newer (https://nodejs.org) and run it again.\n`,
  );
  process.exitCode = 1;
}

/** Whether `version` (`20.20.2`) meets an engines range of the form `>=24` or `>=22.18.0`. */
function satisfies(version, range) {
  const have = version.split('.').map(Number);
  const want = minimum(range);
  for (let i = 0; i < 3; i++) {
    if ((have[i] || 0) !== (want[i] || 0)) return (have[i] || 0) > (want[i] || 0);
  }
  return true;
}

function minimum(range) {
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (!match) throw new Error('tsoperator: engines.node must read ">=<version>", not ' + range);
  return match
    .slice(1)
    .filter((part) => part !== undefined)
    .map(Number);
}
