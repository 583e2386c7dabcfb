import type { ArgumentType, ArgumentValue } from './argument-type.ts';

/** Where a marker may stand: in the group-version file (package), above a type, above a field. */
export type MarkerTarget = 'package' | 'type' | 'field';

/** One named argument of a marker. */
export interface ArgumentSpec<T extends ArgumentType = ArgumentType> {
  readonly type: T;
  /** An optional argument may be left out; it then takes `default` when one is given. */
  readonly optional?: boolean;
  readonly default?: ArgumentValue<T>;
  readonly help?: string;
}

/** The arguments of a marker: none (a flag), one unnamed value (`name=value`), or named ones. */
export type MarkerArguments =
  | { readonly kind: 'none' }
  | { readonly kind: 'value'; readonly argument: ArgumentSpec }
  | { readonly kind: 'fields'; readonly fields: Readonly<Record<string, ArgumentSpec>> };

/**
 * A marker, declared once. `V` is the type of its parsed value: `true` for flags, the argument's
 * value for single-value markers, an object of the named arguments otherwise.
 */
export interface MarkerDefinition<V = unknown> {
  /** The name without the leading `+`, e.g. `kubebuilder:validation:Minimum`. */
  readonly name: string;
  readonly targets: readonly MarkerTarget[];
  readonly arguments: MarkerArguments;
  /** One line saying what the marker does. */
  readonly help: string;
  /** Groups markers in help output, e.g. `CRD validation`, `RBAC`. */
  readonly category: string;
  /** Phantom: carries `V` so `MarkerSet.get(definition)` is typed. Never set. */
  readonly valueType?: V;
}

/** The parsed value of a marker with named arguments `F`. */
export type FieldsValue<F extends Readonly<Record<string, ArgumentSpec>>> = {
  -readonly [K in keyof F]: F[K] extends { readonly optional: true }
    ? F[K] extends { readonly default: unknown }
      ? ArgumentValue<F[K]['type']>
      : ArgumentValue<F[K]['type']> | undefined
    : ArgumentValue<F[K]['type']>;
};

interface DefinitionBase {
  readonly name: string;
  readonly targets: readonly MarkerTarget[];
  readonly help: string;
  readonly category: string;
}

/**
 * A marker without arguments, e.g. `+kubebuilder:subresource:status`.
 *
 * @example
 * const status = flagMarker({ name: 'kubebuilder:subresource:status', targets: ['type'], category: 'CRD', help: 'enables the status subresource' });
 */
export function flagMarker(base: DefinitionBase): MarkerDefinition<true> {
  return { ...base, arguments: { kind: 'none' } };
}

/**
 * A marker with one unnamed argument, e.g. `+kubebuilder:validation:Minimum=0`.
 *
 * @example
 * const minimum = valueMarker({ name: 'kubebuilder:validation:Minimum', targets: ['field', 'type'], category: 'CRD validation', help: 'minimum value' }, { type: 'number' });
 */
export function valueMarker<const T extends ArgumentType>(
  base: DefinitionBase,
  argument: ArgumentSpec<T>,
): MarkerDefinition<ArgumentValue<T>> {
  return { ...base, arguments: { kind: 'value', argument } };
}

/**
 * A marker with named arguments, e.g. `+kubebuilder:printcolumn:name=Age,type=date,JSONPath=...`.
 *
 * @example
 * const docs = fieldsMarker({ name: 'kubebuilder:externalDocs', targets: ['field'], category: 'CRD', help: 'external docs' }, { url: { type: 'string' }, description: { type: 'string', optional: true } });
 */
export function fieldsMarker<const F extends Readonly<Record<string, ArgumentSpec>>>(
  base: DefinitionBase,
  fields: F,
): MarkerDefinition<FieldsValue<F>> {
  return { ...base, arguments: { kind: 'fields', fields } };
}
