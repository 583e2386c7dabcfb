import { writeFileSync } from 'node:fs';

// With BENCH_HEAP_FILE set (the benchmark sets it), samples the V8 heap in use every 100 ms and
// writes the peak there at exit, so the heap is reported beside the process's peak RSS. The Go
// contender reports its HeapAlloc the same way.
const file = process.env['BENCH_HEAP_FILE'];
if (file) {
  let peak = 0;
  const sample = (): void => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  };
  setInterval(sample, 100).unref();
  process.on('exit', () => {
    sample();
    writeFileSync(file, JSON.stringify({ peakHeapBytes: peak }));
  });
}
