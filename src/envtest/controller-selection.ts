import { UsageError } from '../errors.ts';

/**
 * An entry of kube-controller-manager's `--controllers`: `*` (the controllers it runs by default),
 * `name` (that controller on), `-name` (off). The first entry naming a controller decides.
 */
const ENTRY = /^(\*|-?[a-z0-9]+(-[a-z0-9]+)*)$/;

/** The controller the fake nodes cannot do without: it lifts the not-ready taint of a new Node. */
const NODE_LIFECYCLE = 'node-lifecycle-controller';

/**
 * `*,-foo,bar` (kube-controller-manager's own syntax) as a list, entries trimmed; a malformed
 * entry or an empty list is an error that shows the syntax.
 */
export function parseControllers(text: string): string[] {
  const entries = text.split(',').map((entry) => entry.trim());
  checkControllers(entries);
  return entries;
}

/** Fails on a malformed entry or an empty list, before any process starts. */
export function checkControllers(entries: readonly string[]): void {
  const bad = entries.filter((entry) => !ENTRY.test(entry));
  if (entries.length === 0 || bad.length > 0) {
    throw new UsageError(
      `${bad.length > 0 ? `"${bad.join('", "')}" is not` : 'an empty list is not'} a kube-controller-manager controller list: give entries such as \`*,-horizontal-pod-autoscaler-controller,bootstrap-signer-controller\` (\`*\` for its defaults, \`name\` to turn one on, \`-name\` to turn it off)`,
    );
  }
}

/**
 * The `--controllers` entries for `entries` and, with nodes, `nodeControllers` after them: a
 * controller the list turns on or off keeps its setting, since the first entry naming it decides.
 * Turning off the node lifecycle controller with nodes is an error: no fake Node would turn
 * schedulable.
 */
export function withNodeControllers(
  entries: readonly string[],
  nodeControllers: readonly string[],
): string[] {
  if (entries.includes(`-${NODE_LIFECYCLE}`)) {
    throw new UsageError(
      `fake nodes need ${NODE_LIFECYCLE}, which lifts the not-ready taint of a new Node: remove -${NODE_LIFECYCLE} from the controllers, or start no nodes`,
    );
  }
  return [...new Set([...entries, ...nodeControllers])];
}
