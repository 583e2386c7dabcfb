import type * as Http from 'node:http';

/**
 * node:http as `require` gives it. An ES import of node:http reads every export to build its
 * namespace, among them the lazy `WebSocket` getters that load undici with HTTP/2, zlib and
 * perf_hooks: about 8 MiB of RSS, measured, that nothing in the runtime uses.
 */
export const nodeHttp: typeof Http = process.getBuiltinModule('node:http');
