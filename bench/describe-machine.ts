// The machine a benchmark ran on, as the results file records it: CPU model and count, memory, Node
// version, OS, and the load average (the machines are shared: a busy neighbour shows up here).
import { cpus, loadavg, release, totalmem } from 'node:os';

export interface MachineDescription {
  cpuModel: string;
  cpus: number;
  memoryGiB: number;
  node: string;
  os: string;
  /** 1, 5 and 15 minute load averages when the run started and ended. */
  loadAverageStart: number[];
  loadAverageEnd?: number[];
}

export function describeMachine(): MachineDescription {
  const list = cpus();
  return {
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    cpus: list.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${process.platform} ${release()}`,
    loadAverageStart: loadavg().map((n) => Math.round(n * 100) / 100),
  };
}

export function endLoadAverage(machine: MachineDescription): MachineDescription {
  return { ...machine, loadAverageEnd: loadavg().map((n) => Math.round(n * 100) / 100) };
}
