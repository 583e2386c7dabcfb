import type { DiagnosticList } from '../../markers/index.ts';
import { DiagnosticCodes, fieldMarkers, typeOnlyMarkers } from '../../markers/index.ts';
import { applySchemaMarkers } from './apply-markers.ts';
import type { ApiTypes } from './api-types.ts';
import type { JSONSchemaProps } from './json-schema-props.ts';
import { knownTypeOutline } from './known-types/index.ts';
import { fieldIsRequired } from './required-fields.ts';
import type { FieldModel, ObjectModel, TypeModel } from './type-model.ts';

/** A `$ref` to a known Kubernetes type starts with this; other refs are named type ids. */
export const KNOWN_REF_PREFIX = 'known:';

/**
 * Formats the type model into OpenAPI, one formatter per model kind. Named and known types become
 * `$ref`s carrying the referenced type's `type` (so field markers can check it); `flattenSchema`
 * replaces them afterwards, as controller-gen does.
 */
export class SchemaFormatter {
  readonly #types: ApiTypes;
  readonly #diagnostics: DiagnosticList;
  readonly #optionalByDefault: (file: string) => boolean;
  readonly #named = new Map<string, JSONSchemaProps>();

  constructor(types: ApiTypes, diagnostics: DiagnosticList, optionalByDefault: (file: string) => boolean) {
    this.#types = types;
    this.#diagnostics = diagnostics;
    this.#optionalByDefault = optionalByDefault;
  }

  /** The schema of a named type: its body, its description and its type-level markers. */
  namedSchema(id: string): JSONSchemaProps {
    const cached = this.#named.get(id);
    if (cached) return cached;
    const named = this.#types.get(id);
    const schema: JSONSchemaProps = {};
    this.#named.set(id, schema);
    Object.assign(schema, this.schemaFor(named.type, named.location.file, id));
    if (named.description) schema.description = named.description;
    applySchemaMarkers(named.markers, schema, this.#diagnostics);
    return schema;
  }

  schemaFor(model: TypeModel, file: string, ownerId?: string): JSONSchemaProps {
    switch (model.kind) {
      case 'primitive':
        return { type: model.type };
      case 'integer':
        return model.format === undefined ? { type: 'integer' } : { type: 'integer', format: model.format };
      case 'bytes':
        return { type: 'string', format: 'byte' };
      case 'enum':
        return { type: enumType(model.type, model.values), enum: [...model.values] };
      case 'array':
        return { type: 'array', items: this.schemaFor(model.items, file) };
      case 'map':
        return { type: 'object', additionalProperties: this.schemaFor(model.values, file) };
      case 'object':
        return this.#objectSchema(model.object, file, ownerId);
      case 'named':
        return withReferencedType({ $ref: model.id }, this.namedSchema(model.id));
      case 'known':
        return withReferencedType({ $ref: KNOWN_REF_PREFIX + model.name }, knownTypeOutline(model.name));
      case 'unknown':
        return { 'x-kubernetes-preserve-unknown-fields': true };
      case 'nullable':
        return { ...this.schemaFor(model.inner, file), nullable: true };
      case 'invalid':
        return {};
    }
  }

  #objectSchema(object: ObjectModel, file: string, ownerId: string | undefined): JSONSchemaProps {
    const schema: JSONSchemaProps = { type: 'object', properties: {} };
    const owner = ownerId === undefined ? undefined : this.#types.get(ownerId).markers;
    const oneOfFields = new Set(
      [typeOnlyMarkers.AtMostOneOf, typeOnlyMarkers.ExactlyOneOf, typeOnlyMarkers.AtLeastOneOf].flatMap((d) =>
        (owner?.get(d) ?? []).flatMap((m) => m.value),
      ),
    );
    const required: string[] = [];
    const immutable: string[] = [];
    for (const field of object.fields) {
      if (this.#isRequired(field, file, oneOfFields)) required.push(field.name);
      if (field.markers.has(fieldMarkers.immutable)) immutable.push(field.name);
      (schema.properties ?? {})[field.name] = this.#fieldSchema(field, file);
    }
    if (object.embedded.length > 0)
      schema.allOf = object.embedded.map((model) => this.schemaFor(model, file));
    if (required.length > 0) schema.required = required.sort();
    const onceSet = immutable.filter((name) => !required.includes(name));
    if (onceSet.length > 0) {
      schema['x-kubernetes-validations'] = onceSet.map((name) => ({
        rule: `!has(oldSelf.${name}) || has(self.${name})`,
        message: `field ${name} is immutable once set`,
      }));
    }
    return schema;
  }

  #isRequired(field: FieldModel, file: string, oneOfFields: ReadonlySet<string>): boolean {
    const required = fieldIsRequired(field, this.#optionalByDefault(file));
    if (required && oneOfFields.has(field.name)) {
      const message = `field ${field.name} is part of a OneOf constraint and must be optional (\`?\`)`;
      this.#diagnostics.error(DiagnosticCodes.conflictingMarkers, message, field.location);
      return false;
    }
    return required;
  }

  #fieldSchema(field: FieldModel, file: string): JSONSchemaProps {
    const schema = field.markers.has(fieldMarkers.Schemaless) ? {} : this.schemaFor(field.type, file);
    if (field.description) schema.description = field.description;
    else delete schema.description;
    applySchemaMarkers(field.markers, schema, this.#diagnostics);
    return schema;
  }
}

/** A reference carries the referenced type's `type` (and `format` for scalars), as controller-gen's do. */
function withReferencedType(reference: JSONSchemaProps, target: JSONSchemaProps): JSONSchemaProps {
  if (target.type !== undefined) reference.type = target.type;
  if (target.format !== undefined && target.type !== 'object' && target.type !== 'array')
    reference.format = target.format;
  return reference;
}

/** Numeric enums of whole numbers are integers, as a Go int enum would be. */
function enumType(type: 'string' | 'number' | 'boolean', values: readonly unknown[]): string {
  return type === 'number' && values.every((v) => Number.isInteger(v)) ? 'integer' : type;
}
