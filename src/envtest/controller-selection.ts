import { UsageError } from '../errors.ts';

/**
 * An entry of kube-controller-manager's `--controllers`: `*` (the controllers it runs by default),
 * `name` (that controller on), `-name` (off). The first entry naming a controller decides.
 */
const ENTRY = /^(\*|-?[a-z0-9]+(-[a-z0-9]+)*)$/;

/**
 * The names kube-controller-manager still takes for the controllers fake nodes need, from before
 * they were renamed (`nodelifecycle`), which it reads as the new ones.
 */
const FORMER_NAMES: Readonly<Record<string, string>> = {
  nodelifecycle: 'node-lifecycle-controller',
  podgc: 'pod-garbage-collector-controller',
  serviceaccount: 'serviceaccount-controller',
};

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
 * Turning off one of `nodeControllers`, by its name or a former one, is an error: the fake nodes
 * would never run a Pod (see NODE_CONTROLLERS).
 */
export function withNodeControllers(
  entries: readonly string[],
  nodeControllers: readonly string[],
): string[] {
  const off = entries
    .filter((entry) => entry.startsWith('-'))
    .map((entry) => FORMER_NAMES[entry.slice(1)] ?? entry.slice(1))
    .filter((name) => nodeControllers.includes(name));
  if (off.length > 0) {
    throw new UsageError(
      `fake nodes need ${off.join(' and ')} (a new Node turns schedulable, and its Pods are admitted and cleaned up, only with ${nodeControllers.join(', ')}): remove ${off.map((name) => `-${name}`).join(', ')} from the controllers, or start no nodes`,
    );
  }
  return [...new Set([...entries, ...nodeControllers])];
}
