// Loaded into a served process (`node --import ./bench/loop-cpu.mjs`) by bench/heavy-patch.mjs: the longest
// stretch between two 1 ms timer turns, as wall time and as the process's CPU time in it. On a machine other work
// loads, the wall time includes waiting for a core; the CPU time is what the process itself held the loop for (an
// upper bound: the GC's helper threads count too). On SIGUSR2 it writes both maxima to BENCH_LOOP_CPU_FILE and
// starts again.
import { renameSync, writeFileSync } from 'node:fs';

const file = process.env.BENCH_LOOP_CPU_FILE;
let longest = { cpuMs: 0, wallMs: 0 };
let lastCpu = process.cpuUsage();
let lastWall = performance.now();

function turn() {
  const cpu = process.cpuUsage(lastCpu);
  const wall = performance.now();
  const cpuMs = (cpu.user + cpu.system) / 1000;
  longest = { cpuMs: Math.max(longest.cpuMs, cpuMs), wallMs: Math.max(longest.wallMs, wall - lastWall) };
  lastCpu = process.cpuUsage();
  lastWall = performance.now();
  setTimeout(turn, 1).unref();
}
turn();

process.on('SIGUSR2', () => {
  if (file) {
    writeFileSync(`${file}.tmp`, JSON.stringify(longest));
    renameSync(`${file}.tmp`, file);
  }
  longest = { cpuMs: 0, wallMs: 0 };
});
