import { join } from 'node:path';
import { loadApiProject } from '../../gen/crd/api-project.ts';
import { ApiTypes } from '../../gen/crd/api-types.ts';
import { findKinds } from '../../gen/crd/find-kinds.ts';
import { generateCrds } from '../../gen/crd/generate-crds.ts';
import type { JSONSchemaProps } from '../../gen/crd/json-schema-props.ts';
import type { EnumLiteral, TypeModel } from '../../gen/crd/type-model.ts';
import { DiagnosticList, createMarkerRegistry } from '../../markers/index.ts';

/**
 * What the scaffolded webhook code may rely on about a value: its TypeScript type, reduced to what
 * decides whether an expression compiles and how two versions of a field compare.
 */
export type ValueShape =
  | { readonly kind: 'string' | 'number' | 'integer' | 'boolean' | 'unknown' }
  | { readonly kind: 'enum'; readonly values: readonly EnumLiteral[] }
  | { readonly kind: 'array'; readonly items: ValueShape }
  | { readonly kind: 'map'; readonly values: ValueShape }
  | { readonly kind: 'object'; readonly fields: readonly FieldShape[] }
  | { readonly kind: 'nullable'; readonly inner: ValueShape }
  /** A runtime or Kubernetes type (`Quantity`, `V1PodSpec`), or one that cannot be mapped. */
  | { readonly kind: 'opaque'; readonly name: string };

/** A property of an object type, with the schema the CRD gives it (its markers applied). */
export interface FieldShape {
  readonly name: string;
  /** Written with `?`: TypeScript lets an object literal leave it out. */
  readonly optional: boolean;
  readonly type: ValueShape;
  readonly schema: JSONSchemaProps;
}

/** A kind's root type (apiVersion, kind, metadata, spec, status, ...) and its CRD schema. */
export interface KindShape {
  readonly fields: readonly FieldShape[];
  readonly schema: JSONSchemaProps;
}

/** One version of a kind, found by its types file (relative to the project root). */
export interface KindVersionRef {
  readonly typesPath: string;
  readonly qualifiedGroup: string;
  readonly version: string;
  readonly kind: string;
}

/**
 * Reads kinds as their types files declare them now, with the schema `tsoperator manifests` would
 * generate for them: the webhook scaffolds are written against the fields a kind has, so they compile
 * however the user edited the types. A kind that cannot be read (types that do not parse) is
 * undefined, and its scaffolds use none of its fields.
 *
 * @example
 * ```ts
 * const [shape] = readKindShapes('.', [
 *   { typesPath: 'src/api/v1/webapp.types.ts', qualifiedGroup: 'demo.example.org', version: 'v1', kind: 'WebApp' },
 * ]);
 * ```
 */
export function readKindShapes(root: string, refs: readonly KindVersionRef[]): (KindShape | undefined)[] {
  const registry = createMarkerRegistry();
  // The manifests step reports problems of the types; here they only mean "use no fields".
  const diagnostics = new DiagnosticList();
  const api = loadApiProject(root, registry, diagnostics);
  const types = new ApiTypes(api.context);
  const crds = generateCrds({ root, registry, diagnostics, generatorVersion: '' });
  return refs.map((ref) => {
    const file = api.project.getSourceFile(join(root, ref.typesPath));
    const declaration = file && findKinds([file], api.context).find((d) => d.getName() === ref.kind);
    const crd = crds.find((c) => c.spec.group === ref.qualifiedGroup && c.spec.names.kind === ref.kind);
    const schema = crd?.spec.versions.find((v) => v.name === ref.version)?.schema.openAPIV3Schema;
    if (!declaration || !schema) return undefined;
    const shape = toShape({ kind: 'named', id: types.request(declaration) }, schema, types, new Set());
    return shape.kind === 'object' ? { fields: shape.fields, schema } : undefined;
  });
}

function toShape(
  model: TypeModel,
  schema: JSONSchemaProps,
  types: ApiTypes,
  expanding: ReadonlySet<string>,
): ValueShape {
  switch (model.kind) {
    case 'primitive':
      return { kind: model.type };
    case 'integer':
      return { kind: 'integer' };
    case 'unknown':
      return { kind: 'unknown' };
    case 'enum':
      return { kind: 'enum', values: model.values };
    case 'array':
      return { kind: 'array', items: toShape(model.items, schema.items ?? {}, types, expanding) };
    case 'map':
      return { kind: 'map', values: toShape(model.values, additional(schema), types, expanding) };
    case 'nullable':
      return { kind: 'nullable', inner: toShape(model.inner, schema, types, expanding) };
    case 'object': {
      const own = model.object.fields.map((field) => ({
        name: field.name,
        optional: field.optional,
        type: toShape(field.type, schema.properties?.[field.name] ?? {}, types, expanding),
        schema: schema.properties?.[field.name] ?? {},
      }));
      const embedded = model.object.embedded.flatMap((base) => {
        const shape = toShape(base, schema, types, expanding);
        return shape.kind === 'object' ? shape.fields : [];
      });
      return { kind: 'object', fields: [...embedded, ...own] };
    }
    case 'named': {
      // A CRD schema cannot recurse, so a type that refers to itself is left opaque there.
      if (expanding.has(model.id)) return { kind: 'opaque', name: model.id };
      return toShape(types.get(model.id).type, schema, types, new Set([...expanding, model.id]));
    }
    case 'known':
      return { kind: 'opaque', name: model.name };
    default:
      return { kind: 'opaque', name: model.kind };
  }
}

function additional(schema: JSONSchemaProps): JSONSchemaProps {
  return typeof schema.additionalProperties === 'object' ? schema.additionalProperties : {};
}

/** The field named `name` of an object shape. */
export function fieldOf(
  shape: { readonly fields: readonly FieldShape[] },
  name: string,
): FieldShape | undefined {
  return shape.fields.find((field) => field.name === name);
}

/** Whether two fields have the same TypeScript type: a value of one is a value of the other. */
export function sameShape(a: ValueShape, b: ValueShape): boolean {
  return JSON.stringify(typeKey(a)) === JSON.stringify(typeKey(b));
}

function typeKey(shape: ValueShape): unknown {
  switch (shape.kind) {
    case 'enum':
      return ['enum', [...shape.values].map(String).sort()];
    case 'array':
      return ['array', typeKey(shape.items)];
    case 'map':
      return ['map', typeKey(shape.values)];
    case 'nullable':
      return ['nullable', typeKey(shape.inner)];
    case 'object':
      return [
        'object',
        [...shape.fields]
          .sort((x, y) => (x.name < y.name ? -1 : 1))
          .map((f) => [f.name, f.optional, typeKey(f.type)]),
      ];
    case 'opaque':
      return ['opaque', shape.name];
    default:
      return [shape.kind];
  }
}
