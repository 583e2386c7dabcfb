import type { RequestCounts } from './api-server-requests.ts';
import type { ContenderRun } from './run-contender.ts';

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** Requests whose `VERB resource code` key matches. */
function served(requests: RequestCounts, match: RegExp): number {
  let n = 0;
  for (const [key, count] of requests) if (match.test(key)) n += count;
  return n;
}

interface Row {
  readonly name: string;
  readonly seconds: number;
  readonly firstWriteSeconds: number;
  readonly peakRssMiB: number;
  readonly peakAnonymousRssMiB: number;
  readonly peakHeapMiB: number;
  readonly cpuSeconds: number;
  readonly controlPlaneCpuSeconds: number;
  readonly writes: number;
  readonly conflicts: number;
}

function rowOf(name: string, runs: readonly ContenderRun[]): Row {
  const mine = runs.filter((r) => r.name === name);
  return {
    name,
    seconds: median(mine.map((r) => r.seconds)),
    firstWriteSeconds: median(mine.map((r) => r.firstWriteSeconds)),
    peakRssMiB: median(mine.map((r) => r.peakRssBytes)) / 2 ** 20,
    peakAnonymousRssMiB: median(mine.map((r) => r.peakAnonymousRssBytes)) / 2 ** 20,
    peakHeapMiB: median(mine.map((r) => r.peakHeapBytes)) / 2 ** 20,
    cpuSeconds: median(mine.map((r) => r.cpuSeconds)),
    controlPlaneCpuSeconds: median(mine.map((r) => r.controlPlaneCpuSeconds)),
    writes: median(mine.map((r) => served(r.requests, /^(POST|PUT|PATCH|DELETE) .* 2\d\d$/))),
    conflicts: median(mine.map((r) => served(r.requests, / 409$/))),
  };
}

function ratio(a: Row | undefined, b: Row | undefined, of: (r: Row) => number = (r) => r.seconds): string {
  return a && b ? `${(of(a) / of(b)).toFixed(2)}×` : 'n/a';
}

/** tsoperator against controller-runtime on each measure the goals name. */
function peerRatios(ours: Row | undefined, peer: Row | undefined): string {
  const measures: [string, (r: Row) => number][] = [
    ['converged', (r) => r.seconds],
    ['first write', (r) => r.firstWriteSeconds],
    ['CPU', (r) => r.cpuSeconds],
    ['peak RSS', (r) => r.peakRssMiB],
    ['peak anonymous RSS', (r) => r.peakAnonymousRssMiB],
    ['peak heap', (r) => r.peakHeapMiB],
  ];
  return measures.map(([name, of]) => `${name} ${ratio(ours, peer, of)}`).join(', ');
}

/**
 * The medians of every contender (writes and conflicts as the API server counted them), then
 * the ratios the goal is about: tsoperator against controller-runtime and the faster raw loop.
 */
export function resultsTable(runs: readonly ContenderRun[], webApps: number): string {
  const rows = [...new Set(runs.map((r) => r.name))].map((name) => rowOf(name, runs));
  const find = (name: string): Row | undefined => rows.find((r) => r.name === name);
  const raw = rows.filter((r) => r.name.startsWith('raw-loop')).sort((a, b) => a.seconds - b.seconds)[0];
  const lines = [
    `| contender | ${webApps} WebApps converged | first write | WebApps/s | CPU | API server + etcd CPU | peak RSS | peak anonymous RSS | peak heap | writes | conflicts |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.seconds.toFixed(2)} s | ${r.firstWriteSeconds.toFixed(2)} s | ` +
        `${(webApps / r.seconds).toFixed(0)} | ${r.cpuSeconds.toFixed(2)} s | ${r.controlPlaneCpuSeconds.toFixed(2)} s | ${r.peakRssMiB.toFixed(0)} MiB | ${r.peakAnonymousRssMiB.toFixed(0)} MiB | ${r.peakHeapMiB.toFixed(0)} MiB | ${r.writes} | ${r.conflicts} |`,
    ),
    '',
    `tsoperator / controller-runtime: ${peerRatios(find('tsoperator'), find('controller-runtime'))}; ` +
      `tsoperator / fastest raw loop (${raw?.name ?? 'none'}): ${ratio(find('tsoperator'), raw)}`,
  ];
  return lines.join('\n');
}
