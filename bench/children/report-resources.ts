// Preloaded into every measured child (node --import): at exit it writes the process's resource usage
// (peak RSS in KiB, CPU times in µs) as JSON to BENCH_RESOURCES_FILE for the benchmark to read.
import { writeFileSync } from 'node:fs';

const file = process.env['BENCH_RESOURCES_FILE'];
if (file) {
  process.on('exit', () => {
    writeFileSync(file, JSON.stringify(process.resourceUsage()));
  });
}
