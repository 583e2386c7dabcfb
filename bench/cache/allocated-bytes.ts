import type { GCProfilerResult } from 'node:v8';

/** JavaScript heap plus external memory (response Buffers among it) in use now. */
export function memoryInUse(): number {
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

/**
 * The bytes allocated (JavaScript heap and external memory) from `start` (a {@link memoryInUse}
 * reading) over a GCProfiler run to `end` (another), as Go's MemStats.TotalAlloc counts them:
 * what each collection found in use above what the previous one left, plus the growth since the
 * last one.
 */
export function allocatedBytes(start: number, run: GCProfilerResult, end: number): number {
  let total = 0;
  let left = start;
  for (const { beforeGC, afterGC } of run.statistics) {
    total += Math.max(0, inUse(beforeGC.heapStatistics) - left);
    left = inUse(afterGC.heapStatistics);
  }
  return total + Math.max(0, end - left);
}

function inUse(stats: { readonly usedHeapSize: number; readonly externalMemory: number }): number {
  return stats.usedHeapSize + stats.externalMemory;
}
