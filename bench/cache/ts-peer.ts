import { GCProfiler } from 'node:v8';
import { parseArgs } from 'node:util';
import { newCache } from '../../src/runtime/cache/cache.ts';
import { loadRestConfig } from '../../src/runtime/config/load-rest-config.ts';
import { ConfigMapKind } from '../../src/runtime/client/kinds.ts';
import { requestKey } from '../../src/runtime/reconcile/request.ts';
import { LOW_PRIORITY } from '../../src/runtime/workqueue/add-options.ts';
import { Workqueue } from '../../src/runtime/workqueue/workqueue.ts';
import type { CacheRunResult } from './cache-run-result.ts';
import { allocatedBytes, memoryInUse } from './allocated-bytes.ts';
import { residentBytes } from './resident-bytes.ts';

// The tsoperator side of the cache benchmark (run with --expose-gc): starts a cache of the
// ConfigMaps of one namespace, waits for sync, and prints what bench/cache/go/main.go prints.

const { values } = parseArgs({ options: { kubeconfig: { type: 'string' }, namespace: { type: 'string' } } });
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc || !values.kubeconfig || !values.namespace)
  throw new Error('usage: node --expose-gc ts-peer.ts --kubeconfig F --namespace NS');

const heapAfterGc = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

// The runtime's own kubeconfig loader, as a generated project's manager uses: the process's RSS
// then holds what an operator holds, not client-node's generated API.
const kubeConfig = loadRestConfig({ kubeconfig: values.kubeconfig });
const before = heapAfterGc();
const rssBefore = residentBytes('VmRSS');
const profiler = new GCProfiler();
const inUseBefore = memoryInUse();
profiler.start();
const cpuBefore = process.cpuUsage();
const started = performance.now();
const cache = newCache({ kubeConfig, namespaces: [values.namespace] });
const informer = cache.informerFor(ConfigMapKind);
const stop = new AbortController();
cache.start(stop.signal);
await cache.waitForCacheSync();
const syncSeconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
const allocated = allocatedBytes(inUseBefore, profiler.stop(), memoryInUse());
const objects = informer.store.size;
const after = heapAfterGc();
const rssAfter = residentBytes('VmRSS');

// The controller's queue holding one key per object, as the initial list's handler leaves it.
const queue = new Workqueue<string>();
for (const obj of informer.store.values()) {
  const { namespace = '', name = '' } = obj.metadata ?? {};
  queue.add(requestKey({ namespace, name }), { priority: LOW_PRIORITY });
}
const queued = heapAfterGc();

const result: CacheRunResult = {
  objects,
  syncSeconds,
  // The cache's wait resolves on the event that syncs it: no polling between the two.
  hasSyncedSeconds: syncSeconds,
  syncCpuSeconds: (cpu.user + cpu.system) / 1e6,
  heapBytesPerObject: (after - before) / objects,
  rssBytesPerObject: (rssAfter - rssBefore) / objects,
  allocBytesPerObject: allocated / objects,
  queuedKeyBytes: (queued - after) / objects,
  peakRssBytes: residentBytes('VmHWM'),
  rssAfterSyncBytes: rssAfter,
};
console.log(JSON.stringify(result));
queue.shutDown();
stop.abort();
process.exit(0);
