import { KubeConfig } from '@kubernetes/client-node';
import { parseArgs } from 'node:util';
import { newCache } from '../../src/runtime/cache/cache.ts';
import { ConfigMapKind } from '../../src/runtime/client/kinds.ts';
import type { CacheRunResult } from './cache-run-result.ts';

// The tsoperator side of the cache benchmark (run with --expose-gc): starts a cache of the
// ConfigMaps of one namespace, waits for sync, and prints the time and the heap per cached object.

const { values } = parseArgs({ options: { kubeconfig: { type: 'string' }, namespace: { type: 'string' } } });
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc || !values.kubeconfig || !values.namespace)
  throw new Error('usage: node --expose-gc ts-peer.ts --kubeconfig F --namespace NS');

const heapAfterGc = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(values.kubeconfig);
const before = heapAfterGc();
const started = performance.now();
const cache = newCache({ kubeConfig, namespaces: [values.namespace] });
const informer = cache.informerFor(ConfigMapKind);
const stop = new AbortController();
cache.start(stop.signal);
await cache.waitForCacheSync();
const syncSeconds = (performance.now() - started) / 1000;
const objects = informer.store.size;
const after = heapAfterGc();
const result: CacheRunResult = { objects, syncSeconds, bytesPerObject: (after - before) / objects };
console.log(JSON.stringify(result));
stop.abort();
process.exit(0);
