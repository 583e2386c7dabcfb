import type { MarkerSet, SourceLocation } from '../../markers/index.ts';

/** A literal value of a union-of-literals type, the TypeScript spelling of an enum. */
export type EnumLiteral = string | number | boolean;

/**
 * The type model between TypeScript and OpenAPI: what a TypeScript type means for a schema, and no
 * more. Parsers build it from ts-morph nodes; formatters turn it into JSONSchemaProps.
 */
export type TypeModel =
  | { readonly kind: 'primitive'; readonly type: 'string' | 'boolean' | 'number' }
  /** Without a format for Go's `int` (as controller-gen writes it). */
  | { readonly kind: 'integer'; readonly format?: 'int32' | 'int64' }
  /** Go's `[]byte`: base64 text. */
  | { readonly kind: 'bytes' }
  | {
      readonly kind: 'enum';
      readonly type: 'string' | 'number' | 'boolean';
      readonly values: readonly EnumLiteral[];
    }
  | { readonly kind: 'array'; readonly items: TypeModel }
  | { readonly kind: 'map'; readonly values: TypeModel }
  | { readonly kind: 'object'; readonly object: ObjectModel }
  | { readonly kind: 'named'; readonly id: string }
  | { readonly kind: 'known'; readonly name: string }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'nullable'; readonly inner: TypeModel }
  | { readonly kind: 'invalid' };

/** The fields of an interface or type literal, and the types it extends (Go's embedded structs). */
export interface ObjectModel {
  readonly fields: readonly FieldModel[];
  readonly embedded: readonly TypeModel[];
}

export interface FieldModel {
  /** The JSON name: the property name as written. */
  readonly name: string;
  readonly type: TypeModel;
  /** Written with `?`: absent from `required` unless a marker says otherwise. */
  readonly optional: boolean;
  readonly markers: MarkerSet;
  readonly description: string;
  readonly location: SourceLocation;
}

/** An exported interface or type alias of an API version folder. */
export interface NamedTypeModel {
  /** Unique across the project: `<file path>#<name>`. */
  readonly id: string;
  readonly name: string;
  readonly type: TypeModel;
  readonly markers: MarkerSet;
  readonly description: string;
  readonly location: SourceLocation;
}
