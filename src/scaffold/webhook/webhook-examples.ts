import type { JSONSchemaProps } from '../../gen/crd/json-schema-props.ts';
import { fieldOf, sameShape, type FieldShape, type KindShape, type ValueShape } from './kind-shape.ts';
import { member, sampleLiteral, type SampleOverrides } from './value-literals.ts';

/** The default the example defaulter fills in, on a field the kind has. */
export interface DefaultingExample {
  /** `spec.replicas`, as the API server names the field. */
  readonly path: string;
  /** The statements of `default()`, each on its line. */
  readonly statements: readonly string[];
  /** The default value, as source text. */
  readonly value: string;
  /** The field read from a variable holding the kind: `created.spec?.replicas`. */
  readonly read: (variable: string) => string;
}

/** The example validation rule: a string field of the kind must not be empty. */
export interface ValidationExample {
  readonly path: string;
  /** `title`: the field's name, for the variable holding its value. */
  readonly variable: string;
  /** `MAX_TITLE_LENGTH`, or undefined when the CRD already bounds the length as tightly. */
  readonly maxLengthConstant: string | undefined;
  /** The field read from the validator's parameter: `webApp.spec?.title`. */
  readonly read: string;
  /** Whether the value read may be undefined (an optional field or spec). */
  readonly mayBeUndefined: boolean;
}

/** The fallback rule when no spec field lends itself to one: names fit in a label value. */
export interface NameRuleExample {
  readonly read: string;
}

/** How the webhook test writes objects of the kind; undefined parts could not be written. */
export interface TestObjects {
  /** Whether the kind has an object `spec`, which the test's object helper takes. */
  readonly specParam: boolean;
  /** The other fields an object needs (`status: {...}`), as `name: value` source text. */
  readonly extraFields: readonly string[];
  /** The object's name read from a variable holding it: `created.metadata?.name`. */
  readonly nameRead: (variable: string) => string;
  /** A spec the API server admits (required fields only). */
  readonly validSpec: string;
  /** The valid spec without the defaulted field. */
  readonly defaultingSpec: string | undefined;
  /** The valid spec with the validated field empty, and with a valid value in it. */
  readonly invalidSpec: string | undefined;
  readonly admittedSpec: string | undefined;
}

/** What the defaulter, validator and webhook test of one kind version are written with. */
export interface KindExamples {
  readonly defaulting: DefaultingExample | undefined;
  readonly validation: ValidationExample | undefined;
  readonly nameRule: NameRuleExample | undefined;
  readonly objects: TestObjects | undefined;
  /** A spec field named in the comment of a defaulter that uses none: `spec.replicas`. */
  readonly exampleField: string | undefined;
}

/** Names Kubernetes uses as label values are at most this long. */
export const LABEL_VALUE_MAX_LENGTH = 63;

const SCALARS: ReadonlySet<ValueShape['kind']> = new Set(['string', 'number', 'integer', 'boolean', 'enum']);

/** Root fields the test writes itself. */
const TYPE_META = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Chooses the examples of a kind's webhooks from the fields it has: the first optional scalar
 * without a CRD default is defaulted, the first string the schema lets be empty must not be.
 * A kind without such fields (a deploy-image kind: its fields have defaults and bounds) gets a
 * defaulter with the example in a comment and a validator of its name's length.
 *
 * @example
 * ```ts
 * const examples = kindExamples(shape, 'webApp');
 * ```
 */
export function kindExamples(
  shape: KindShape | undefined,
  variable: string,
  otherVersions: readonly (KindShape | undefined)[] = [],
): KindExamples {
  const specField = shape && fieldOf(shape, 'spec');
  const spec =
    specField?.type.kind === 'object' ? { field: specField, fields: specField.type.fields } : undefined;
  const objects = shape && testObjectsBase(shape);
  const defaulted = spec && objects ? defaultingCandidate(spec.fields, spec.field) : undefined;
  const validated = spec && objects ? validationCandidate(spec.fields, spec.field, otherVersions) : undefined;
  const specRead = (v: string): string => member(v, 'spec');
  const specOptional = specField?.optional ?? false;
  const fieldRead = (v: string, name: string): string => member(specRead(v), name, specOptional);
  const nameRead = shape && nameReadOf(shape);
  return {
    defaulting:
      defaulted && spec
        ? {
            path: `spec.${defaulted.field.name}`,
            statements: defaultingStatements(
              variable,
              spec.field,
              spec.fields,
              defaulted.field,
              defaulted.value,
            ),
            value: defaulted.value,
            read: (v) => fieldRead(v, defaulted.field.name),
          }
        : undefined,
    validation: validated && {
      path: `spec.${validated.name}`,
      variable: validated.name.replace(/\W/g, '_'),
      maxLengthConstant:
        (validated.schema.maxLength ?? Infinity) > LABEL_VALUE_MAX_LENGTH
          ? `MAX_${constantCase(validated.name)}_LENGTH`
          : undefined,
      read: fieldRead(variable, validated.name),
      mayBeUndefined: specOptional || validated.optional,
    },
    nameRule: validated === undefined && nameRead ? { read: `${nameRead(variable)} ?? ''` } : undefined,
    objects:
      objects &&
      completeObjects(objects, spec?.field, {
        defaulted: defaulted?.field.name,
        validated: validated && {
          name: validated.name,
          value: sampleLiteral(validated.type, validated.schema),
        },
      }),
    exampleField: exampleField(variable, spec?.fields ?? []),
  };
}

type ObjectsBase = Pick<TestObjects, 'specParam' | 'extraFields' | 'nameRead' | 'validSpec'>;

/**
 * The object helper's parts, or undefined when a field the kind requires has no sample (or its
 * metadata is not an ObjectMeta, which the helper writes the name into).
 */
function testObjectsBase(shape: KindShape): ObjectsBase | undefined {
  const nameRead = nameReadOf(shape);
  if (!nameRead) return undefined;
  const specField = fieldOf(shape, 'spec');
  const specParam = specField?.type.kind === 'object';
  const required = new Set(shape.schema.required ?? []);
  const extraFields: string[] = [];
  for (const field of shape.fields) {
    if (TYPE_META.has(field.name) || (specParam && field.name === 'spec')) continue;
    if (field.optional && !required.has(field.name)) continue;
    const value = sampleLiteral(field.type, field.schema);
    if (value === undefined) return undefined;
    extraFields.push(`${field.name}: ${value}`);
  }
  const validSpec = specParam && specField ? sampleLiteral(specField.type, specField.schema) : '{}';
  return validSpec === undefined ? undefined : { specParam, extraFields, nameRead, validSpec };
}

/** How the name of an object of the kind is read, where its metadata is an ObjectMeta. */
function nameReadOf(shape: KindShape): ((variable: string) => string) | undefined {
  const metadata = fieldOf(shape, 'metadata');
  if (metadata?.type.kind !== 'opaque' || metadata.type.name !== 'V1ObjectMeta') return undefined;
  return (v) => member(member(v, 'metadata'), 'name', metadata.optional);
}

function completeObjects(
  base: ObjectsBase,
  spec: FieldShape | undefined,
  uses: { defaulted: string | undefined; validated: { name: string; value: string | undefined } | undefined },
): TestObjects {
  const variant = (overrides: SampleOverrides): string | undefined =>
    spec && sampleLiteral(spec.type, spec.schema, overrides);
  const { defaulted, validated } = uses;
  return {
    ...base,
    defaultingSpec: defaulted === undefined ? undefined : variant({ [defaulted]: null }),
    invalidSpec: validated === undefined ? undefined : variant({ [validated.name]: "''" }),
    admittedSpec: validated?.value === undefined ? undefined : variant({ [validated.name]: validated.value }),
  };
}

function defaultingCandidate(
  fields: readonly FieldShape[],
  spec: FieldShape,
): { field: FieldShape; value: string } | undefined {
  for (const field of fields) {
    // A CRD default is applied before the webhook is called: the webhook would never see it unset.
    if (!field.optional || field.schema.default !== undefined || !SCALARS.has(field.type.kind)) continue;
    const value = sampleLiteral(field.type, field.schema, {}, 'default');
    const without = sampleLiteral(spec.type, spec.schema, { [field.name]: null });
    if (value !== undefined && without !== undefined) return { field, value };
  }
  return undefined;
}

function defaultingStatements(
  variable: string,
  spec: FieldShape,
  specFields: readonly FieldShape[],
  field: FieldShape,
  value: string,
): string[] {
  const target = `${member(member(variable, 'spec'), field.name)} ??= ${value};`;
  if (!spec.optional) return [target];
  // `spec ??= {}` compiles only where every field of the spec may be left out.
  if (specFields.every((f) => f.optional)) return [`${member(variable, 'spec')} ??= {};`, target];
  return [`if (${member(variable, 'spec')} === undefined) return;`, target];
}

/**
 * A string field the schema lets be empty and bounds no other way (no pattern, format or enum). A
 * required one must be in every other version of the kind too: converted from a version without
 * it, it would be empty, and the rule would refuse every object written in that version.
 */
function validationCandidate(
  fields: readonly FieldShape[],
  spec: FieldShape,
  otherVersions: readonly (KindShape | undefined)[],
): FieldShape | undefined {
  if (!celFree(spec.schema)) return undefined;
  const inEveryVersion = (field: FieldShape): boolean =>
    otherVersions.every((other) => {
      const otherSpec = other && fieldOf(other, 'spec');
      const counterpart = otherSpec?.type.kind === 'object' ? fieldOf(otherSpec.type, field.name) : undefined;
      return counterpart !== undefined && sameShape(counterpart.type, field.type);
    });
  return fields.find(
    (field) =>
      field.type.kind === 'string' &&
      (field.optional || inEveryVersion(field)) &&
      celFree(field.schema) &&
      (field.schema.minLength ?? 0) === 0 &&
      field.schema.pattern === undefined &&
      field.schema.format === undefined &&
      field.schema.enum === undefined &&
      sampleLiteral(field.type, field.schema) !== undefined,
  );
}

/** No CEL rule but transition rules, which a new object always passes. */
function celFree(schema: JSONSchemaProps): boolean {
  return (schema['x-kubernetes-validations'] ?? []).every((r) => r.rule.includes('oldSelf'));
}

/** `webApp.spec.replicas`: an optional field if there is one, for a comment. */
function exampleField(variable: string, fields: readonly FieldShape[]): string | undefined {
  const field = fields.find((f) => f.optional) ?? fields[0];
  return field && member(member(variable, 'spec'), field.name);
}

function constantCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/\W/g, '_')
    .toUpperCase();
}
