import { Counter, type Registry } from './prom-client.ts';

/**
 * Registers process_cpu_user_seconds_total, process_cpu_system_seconds_total and
 * process_cpu_seconds_total (the name client_golang gives the sum) in `registry`, as prom-client's
 * default metrics name them, read from `process.cpuUsage()` when the registry collects.
 * prom-client's own loads @opentelemetry/api for exemplars the runtime never records. They count
 * from the process's start, as client_golang's do, not from the registration.
 */
export function registerProcessCpuMetrics(registry: Registry): void {
  let last: NodeJS.CpuUsage = { user: 0, system: 0 };
  const user = new Counter({
    name: 'process_cpu_user_seconds_total',
    help: 'Total user CPU time spent in seconds.',
    registers: [registry],
    // One metric's collect sets all three, from one reading.
    collect() {
      const now = process.cpuUsage();
      const userSeconds = (now.user - last.user) / 1e6;
      const systemSeconds = (now.system - last.system) / 1e6;
      last = now;
      user.inc(userSeconds);
      system.inc(systemSeconds);
      total.inc(userSeconds + systemSeconds);
    },
  });
  const system = new Counter({
    name: 'process_cpu_system_seconds_total',
    help: 'Total system CPU time spent in seconds.',
    registers: [registry],
  });
  const total = new Counter({
    name: 'process_cpu_seconds_total',
    help: 'Total user and system CPU time spent in seconds.',
    registers: [registry],
  });
}
