// Preloaded into every measured child (node --import): at exit it writes the process's resource usage
// (peak RSS in KiB, CPU times in µs) as JSON to BENCH_RESOURCES_FILE for the benchmark to read, with the
// peaks of V8's heap and of the memory node tracks outside it (buffers), bytes, sampled every 100 ms: what
// of the peak RSS is JavaScript's, the rest being native (DuckDB's).
import { writeFileSync } from 'node:fs';

const file = process.env['BENCH_RESOURCES_FILE'];
if (file) {
  let peakHeapTotal = 0;
  let peakExternal = 0;
  const sample = (): void => {
    const memory = process.memoryUsage();
    peakHeapTotal = Math.max(peakHeapTotal, memory.heapTotal);
    peakExternal = Math.max(peakExternal, memory.external);
  };
  setInterval(sample, 100).unref();
  process.on('exit', () => {
    sample();
    writeFileSync(file, JSON.stringify({ ...process.resourceUsage(), peakHeapTotal, peakExternal }));
  });
}
