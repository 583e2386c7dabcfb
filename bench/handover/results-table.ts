import { median } from '../support/median.ts';
import type { HandOver, Scenario } from './hand-over.ts';

type Figure = 'total' | 'released' | 'acquired' | 'afterAcquire' | 'synced';

const SCENARIOS: Record<Scenario, string> = { kill: 'kill -9', term: 'SIGTERM' };
const OURS = 'tsoperator';
const PEER = 'controller-runtime';

/**
 * A markdown table of the medians per scenario, standby and peer, with the range of the whole
 * hand-over and how many rounds missed, and a row of ratios (ours / controller-runtime).
 */
export function resultsTable(runs: readonly HandOver[]): string {
  const lines = [
    '| scenario | standby | peer | signal → first reconcile (min–max) | signal → released | signal → acquired | acquired → first reconcile | acquired → cache synced | rounds (missed) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const scenario of ['kill', 'term'] as const) {
    for (const standby of ['cold', 'warm'] as const) {
      const of = (peer: string): HandOver[] =>
        runs.filter((r) => r.peer === peer && r.scenario === scenario && r.standby === standby);
      const cells = [SCENARIOS[scenario], standby];
      for (const peer of [PEER, OURS]) lines.push(row([...cells, peer], of(peer)));
      lines.push(ratioRow(cells, of(PEER), of(OURS)));
    }
  }
  return lines.join('\n');
}

function row(cells: string[], runs: readonly HandOver[]): string {
  const totals = figures(runs, 'total');
  const range = totals.length ? ` (${ms(Math.min(...totals))}–${ms(Math.max(...totals))})` : '';
  const medians = (['released', 'acquired', 'afterAcquire', 'synced'] as const).map((f) =>
    ms(middle(runs, f)),
  );
  const missed = runs.filter((r) => r.miss).length;
  return cellsOf([...cells, ms(middle(runs, 'total')) + range, ...medians, `${runs.length} (${missed})`]);
}

function ratioRow(cells: string[], peer: readonly HandOver[], ours: readonly HandOver[]): string {
  const ratio = (f: Figure): string => {
    const r = middle(ours, f) / middle(peer, f);
    return Number.isFinite(r) ? `${r.toFixed(2)}×` : '—';
  };
  return cellsOf([...cells, 'ratio', ratio('total'), '', ratio('acquired'), ratio('afterAcquire'), '', '']);
}

function figures(runs: readonly HandOver[], figure: Figure): number[] {
  return runs.map((r) => r[figure]).filter((x) => x !== undefined);
}

function middle(runs: readonly HandOver[], figure: Figure): number {
  return median(figures(runs, figure));
}

/** Seconds with two decimals from one second on, whole milliseconds below; '—' for no figure. */
function ms(x: number): string {
  if (Number.isNaN(x)) return '—';
  return Math.abs(x) >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(0)} ms`;
}

function cellsOf(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}
