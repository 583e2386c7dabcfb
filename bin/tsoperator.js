#!/usr/bin/env node
import module from 'node:module';

// V8 keeps the code it compiled between runs: compiling the TypeScript compiler that ts-morph
// loads is most of a short command's time. Node 22.1+ has it; older 22.x run without.
module.enableCompileCache?.();
const { runCli } = await import('../dist/cli/main.js');

process.exitCode = await runCli(process.argv.slice(2));
