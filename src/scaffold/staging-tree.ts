import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Change } from './change.ts';
import {
  GENERATED_STATE_FILE,
  contentHash,
  parseGeneratedState,
  renderGeneratedState,
  type GeneratedState,
} from './generated-state.ts';
import { insertAtMarker } from './marker-insert.ts';

/** Suffix of the new version written next to a file the user changed, under `--force`. */
export const BESIDE_SUFFIX = '.tsoperator-new';

export interface StagingTreeOptions {
  /** Regenerate files that exist and differ (a file the user changed is kept). Default: false. */
  force?: boolean;
}

/**
 * The project folder as a scaffold will leave it: reads see staged content over the real files,
 * writes only record changes. Nothing touches the disk until the plan is applied, which is what
 * makes a scaffold all-or-nothing and `--dry-run` honest.
 */
export class StagingTree {
  readonly root: string;
  readonly #force: boolean;
  readonly #state: GeneratedState;
  readonly #initialState: string;
  readonly #staged = new Map<string, string>();
  readonly #removed = new Set<string>();
  readonly #changes = new Map<string, Change>();
  readonly #conflicts: string[] = [];
  /** Insertions the user must make by hand (the marker was removed); listed after the writes. */
  readonly #manual: Change[] = [];

  private constructor(root: string, state: GeneratedState, force: boolean) {
    this.root = root;
    this.#state = state;
    this.#initialState = renderGeneratedState(state);
    this.#force = force;
  }

  /** A tree over `root`, with the hashes of what tsoperator generated there before. */
  static async open(root: string, options: StagingTreeOptions = {}): Promise<StagingTree> {
    const state = parseGeneratedState(await readIfExists(join(root, GENERATED_STATE_FILE)));
    return new StagingTree(root, state, options.force ?? false);
  }

  /** The file's text as the plan leaves it, or undefined when it does not exist. */
  async read(path: string): Promise<string | undefined> {
    if (this.#removed.has(path)) return undefined;
    return this.#staged.get(path) ?? (await readIfExists(join(this.root, path)));
  }

  /** The files tsoperator generated (by its records) whose path starts with `prefix`. */
  generatedPaths(prefix: string): string[] {
    return [...this.#state.keys()].filter((path) => path.startsWith(prefix));
  }

  /**
   * Writes a file tsoperator owns: created, left as is, regenerated under --force, or kept. `force`
   * regenerates this one file as --force would, for a file a command must bring up to date.
   */
  async generate(path: string, content: string, force = this.#force): Promise<void> {
    const current = await this.read(path);
    if (current === undefined) return this.#write('create', path, content);
    if (current === content) {
      // Identical to what tsoperator writes: as generated, whoever wrote it.
      this.#state.set(path, contentHash(content));
      return this.#record({ action: 'unchanged', path });
    }
    if (!force) {
      this.#conflicts.push(path);
      return;
    }
    if (this.#state.get(path) === contentHash(current)) return this.#write('overwrite', path, content);
    this.#record({
      action: 'kept',
      path,
      beside: `${path}${BESIDE_SUFFIX}`,
      content,
      note: `changed since tsoperator generated it: kept; the new version is in ${path}${BESIDE_SUFFIX} to merge by hand`,
    });
  }

  /** Writes a file tsoperator keeps as a model of the project (PROJECT): whatever it holds now. */
  async update(path: string, content: string): Promise<void> {
    const current = await this.read(path);
    if (current === content) return this.#record({ action: 'unchanged', path });
    this.#write(current === undefined ? 'create' : 'overwrite', path, content);
  }

  /** Writes a file only when it is missing: an existing one has grown since and stays as it is. */
  async generateIfMissing(path: string, content: string): Promise<void> {
    if ((await this.read(path)) === undefined) return this.#write('create', path, content);
    this.#record({ action: 'unchanged', path });
  }

  /**
   * Removes a file tsoperator generated and no longer does; one the user changed is kept, with a
   * note.
   */
  async remove(path: string): Promise<void> {
    const current = await this.read(path);
    if (current === undefined) {
      this.#state.delete(path);
      return;
    }
    if (this.#state.get(path) !== contentHash(current)) {
      this.#record({
        action: 'kept',
        path,
        note: 'tsoperator no longer generates it; kept because you changed it',
      });
      return;
    }
    this.#state.delete(path);
    this.#removed.add(path);
    this.#record({ action: 'delete', path });
  }

  /**
   * True when the file exists and is not what tsoperator last wrote there (by its records): the
   * user changed it, or tsoperator has no record of writing it.
   */
  async changedSinceGenerated(path: string): Promise<boolean> {
    const current = await this.read(path);
    return current !== undefined && this.#state.get(path) !== contentHash(current);
  }

  /** Removes a file whatever it holds (the caller decided it goes), and forgets its record. */
  async delete(path: string): Promise<void> {
    if ((await this.read(path)) === undefined) return;
    this.#state.delete(path);
    this.#removed.add(path);
    this.#staged.delete(path);
    this.#changes.set(path, { action: 'delete', path });
  }

  /**
   * Replaces a file's text with an edit of it (scaffold lines taken out): recorded as generated only
   * when the file was, so that the user's other changes stay theirs.
   */
  async edit(path: string, content: string, note: string): Promise<void> {
    const current = await this.read(path);
    if (current === undefined || current === content) return;
    this.#stage(path, content, this.#state.get(path) === contentHash(current));
    const previous = this.#changes.get(path);
    const earlier = previous?.action === 'overwrite' ? previous.note : undefined;
    const notes = earlier === undefined || earlier.includes(note) ? note : `${earlier}, ${note}`;
    this.#changes.set(path, { action: 'overwrite', path, content, note: notes });
  }

  /**
   * Adds `snippet` before the `+tsoperator:scaffold:<marker>` line of a file, once (see
   * insertAtMarker for `presentWhen`).
   */
  async insert(path: string, marker: string, snippet: string, presentWhen?: string): Promise<void> {
    const current = await this.read(path);
    const result =
      current === undefined
        ? { kind: 'no-file' as const }
        : insertAtMarker(current, marker, snippet, presentWhen);
    if (result.kind === 'present') return this.#record({ action: 'unchanged', path });
    if (result.kind !== 'inserted') {
      const where =
        result.kind === 'no-file'
          ? `${path} does not exist`
          : `${path} has no +tsoperator:scaffold:${marker} marker`;
      this.#manual.push({ action: 'manual', path, note: `${where}; add by hand:\n${snippet}` });
      return;
    }
    const pristine = current !== undefined && this.#state.get(path) === contentHash(current);
    this.#stage(path, result.text, pristine);
    const previous = this.#changes.get(path);
    const action =
      previous?.action === 'create' || previous?.action === 'overwrite' ? previous.action : 'insert';
    const at = `+tsoperator:scaffold:${marker}`;
    const earlier = previous?.action === 'insert' ? previous.note : undefined;
    const note = earlier === undefined ? `at ${at}` : earlier.includes(at) ? earlier : `${earlier}, ${at}`;
    this.#changes.set(path, { action, path, content: result.text, note });
  }

  /** An edit the user must make by hand, listed after the writes. */
  requireManual(path: string, note: string): void {
    this.#manual.push({ action: 'manual', path, note });
  }

  /** Paths that exist with other content and were not regenerated because --force was not given. */
  conflicts(): readonly string[] {
    return this.#conflicts;
  }

  /** The plan: every change, and the state file when the recorded hashes changed. */
  changes(): Change[] {
    const changes = [...this.#changes.values(), ...this.#manual];
    const state = renderGeneratedState(this.#state);
    if (state !== this.#initialState) {
      const action = this.#initialState === renderGeneratedState(new Map()) ? 'create' : 'overwrite';
      changes.push({ action, path: GENERATED_STATE_FILE, content: state });
    }
    return changes;
  }

  #write(action: 'create' | 'overwrite', path: string, content: string): void {
    this.#stage(path, content, true);
    const previous = this.#changes.get(path);
    this.#record({ action: previous?.action === 'create' ? 'create' : action, path, content });
  }

  #stage(path: string, content: string, trackHash: boolean): void {
    this.#removed.delete(path);
    this.#staged.set(path, content);
    if (trackHash) this.#state.set(path, contentHash(content));
  }

  #record(change: Change): void {
    if (change.action === 'unchanged' && this.#changes.has(change.path)) return;
    this.#changes.set(change.path, change);
  }
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
