import { TsoperatorError } from '../errors.ts';
import type { GoOnlySettings } from './go-only-settings.ts';

/**
 * Reads one check's settings (its `lintersConfig` entry) with the path of each key, so a mistake is
 * reported as `lintersConfig.ssatags.listTypeSetUsage must be one of ...`. Keys no check reads are
 * mistakes too (`done`); settings that only mean something in Go are read and noted (`goOnly`).
 */
export class SettingsReader {
  /** The path below lintersConfig: `ssatags`, `conflictingmarkers.conflicts[0]`. */
  readonly #name: string;
  readonly #raw: Readonly<Record<string, unknown>>;
  readonly #read = new Set<string>();
  readonly #notes: string[];

  /** `notes` receives a line for each Go-only setting found, for the user to see. */
  constructor(name: string, raw: unknown, notes: string[]) {
    this.#name = name;
    this.#notes = notes;
    if (raw !== undefined && !isRecord(raw)) throw this.#error(`${this.#path} must be a map of settings`);
    this.#raw = raw ?? {};
  }

  oneOf<const T extends string>(key: string, allowed: readonly T[], fallback: T): T {
    const value = this.#value(key);
    if (value === undefined) return fallback;
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
    throw this.#error(
      `${this.#path}.${key} must be one of ${allowed.join(', ')}; found ${JSON.stringify(value)}`,
    );
  }

  boolean(key: string, fallback: boolean): boolean {
    const value = this.#value(key);
    if (value === undefined) return fallback;
    if (typeof value === 'boolean') return value;
    throw this.#error(`${this.#path}.${key} must be true or false; found ${JSON.stringify(value)}`);
  }

  string(key: string, fallback: string): string {
    const value = this.#value(key);
    if (value === undefined) return fallback;
    if (typeof value === 'string') return value;
    throw this.#error(`${this.#path}.${key} must be a string; found ${JSON.stringify(value)}`);
  }

  stringList(key: string): string[] {
    const value = this.#value(key) ?? [];
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
    throw this.#error(`${this.#path}.${key} must be a list of strings`);
  }

  stringLists(key: string): string[][] {
    const value = this.#value(key) ?? [];
    const isList = (item: unknown): item is string[] =>
      Array.isArray(item) && item.every((entry) => typeof entry === 'string');
    if (Array.isArray(value) && value.every(isList)) return value;
    throw this.#error(`${this.#path}.${key} must be a list of lists of strings`);
  }

  /** The entries of a list of maps, each read with its own reader. */
  list(key: string): SettingsReader[] {
    const value = this.#value(key) ?? [];
    if (!Array.isArray(value)) throw this.#error(`${this.#path}.${key} must be a list`);
    return value.map(
      (item, index) => new SettingsReader(`${this.#name}.${key}[${index}]`, item, this.#notes),
    );
  }

  /**
   * Reads kube-api-linter's settings that only mean something in Go: a value it does not take, or
   * a key it does not have in a nested map, is an error; each setting given is noted as ignored.
   */
  goOnly(settings: GoOnlySettings): void {
    for (const [key, allowed] of Object.entries(settings)) {
      const value = this.#value(key);
      if (value === undefined) continue;
      if (isValueList(allowed)) {
        this.oneOf(key, allowed, '');
        this.#notes.push(`${this.#name}.${key} has no meaning for TypeScript types; ignored`);
      } else {
        const nested = new SettingsReader(`${this.#name}.${key}`, value, this.#notes);
        nested.goOnly(allowed);
        nested.done();
      }
    }
  }

  /** Throws on the first key that was never read: a typo, or a setting this check does not have. */
  done(): void {
    const unknown = Object.keys(this.#raw).find((key) => !this.#read.has(key));
    if (unknown !== undefined) throw this.#error(`${this.#path} has no setting ${JSON.stringify(unknown)}`);
  }

  get #path(): string {
    return `lintersConfig.${this.#name}`;
  }

  #value(key: string): unknown {
    this.#read.add(key);
    return this.#raw[key];
  }

  #error(message: string): TsoperatorError {
    return new TsoperatorError(`${message} (see "API conventions" in tsoperator's README)`);
  }
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isValueList(value: readonly string[] | GoOnlySettings): value is readonly string[] {
  return Array.isArray(value);
}
