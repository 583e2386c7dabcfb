// Preloaded by a generated project's `npm start` (`node --import tsoperator/compile-cache
// src/main.ts`): Node keeps each module as it stripped the types from it and compiled it in
// node_modules/.cache, so a restart skips Node's TypeScript stripper. Measured on the runtime:
// importing it takes about 0.2 s and 77 MiB of RSS instead of 0.6 s and 107 MiB. The built image
// runs plain JavaScript from dist/, where a compile cache measured no gain, so it has none.
import { enableCompileCache } from 'node:module';
import { join } from 'node:path';

enableCompileCache(join(process.cwd(), 'node_modules', '.cache', 'tsoperator-compile'));
