/**
 * One side of the benchmark: a command started with KUBECONFIG set that makes every WebApp in the
 * cluster converge (an operator), or writes what converging them takes and exits (a raw loop).
 */
export interface Contender {
  readonly name: string;
  readonly command: string;
  /** The arguments for a run on WebApps in `namespace` (operators watch all namespaces and ignore it). */
  readonly args: (namespace: string) => readonly string[];
  /** Default: the current directory. */
  readonly cwd?: string;
  /** An operator runs until stopped; a raw loop exits when it has written everything. */
  readonly runsUntilStopped: boolean;
}
