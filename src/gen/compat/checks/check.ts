import type { JSONSchemaProps } from '../../crd/json-schema-props.ts';
import type { ComparedCrd } from '../compared-crd.ts';

/** How a check's findings count: `error` fails `manifests --check`, `warn` is printed, `off` is silent. */
export type Enforcement = 'error' | 'warn' | 'off';

/** An enforcement under which findings are reported. */
export type ReportedEnforcement = Exclude<Enforcement, 'off'>;

/** A check's own settings from the config file, such as enum's `additionPolicy: Allow`. */
export type CheckOptions = Readonly<Record<string, string>>;

/** The settings a check takes, each with the values it allows; the first is the default. */
export type CheckOptionSpec = Readonly<Record<string, readonly [string, ...string[]]>>;

/** What every check declares, under crdify's name for it so its documentation applies. */
interface CheckBase {
  readonly name: string;
  readonly defaultEnforcement: Enforcement;
  readonly options?: CheckOptionSpec;
}

/**
 * A check of one schema node against the same node of the baseline (its children compared on their
 * own). It judges the keys it lists: whatever else differs is an unhandled change.
 */
export interface PropertyCheck extends CheckBase {
  readonly scope: 'property';
  readonly keys: readonly (keyof JSONSchemaProps)[];
  /** The incompatibility, or undefined when the change is compatible. */
  compare(old: JSONSchemaProps, next: JSONSchemaProps, options: CheckOptions): string | undefined;
}

/** A problem a whole-CRD check found; `version` and `path` say where when there is a where. */
export interface CrdProblem {
  readonly version?: string;
  readonly path?: string;
  readonly message: string;
}

/** A check of a whole CRD against its baseline. */
export interface CrdCheck extends CheckBase {
  readonly scope: 'crd';
  compare(old: ComparedCrd, next: ComparedCrd): CrdProblem[];
}

/** A problem a check of the CRD sets found, in the CRD it names. */
export interface CrdSetProblem {
  readonly crd: string;
  readonly message: string;
}

/** A check of the baseline's CRDs against the generated ones as sets: what one side lacks. */
export interface CrdSetCheck extends CheckBase {
  readonly scope: 'crd-set';
  compare(old: readonly ComparedCrd[], next: readonly ComparedCrd[]): CrdSetProblem[];
}

export type CompatibilityCheck = PropertyCheck | CrdCheck | CrdSetCheck;
