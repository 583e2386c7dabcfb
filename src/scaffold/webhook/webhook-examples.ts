import type { JSONSchemaProps } from '../../gen/crd/json-schema-props.ts';
import { fieldOf, sameShape, type FieldShape, type KindShape, type ValueShape } from './kind-shape.ts';
import { member, sampleLiteral } from './value-literals.ts';

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

/**
 * How the webhook test makes objects of the kind: from the kind's sample in config/samples (which the
 * user keeps valid as the spec gains fields, as the controller test needs it too), under the test's
 * name, with one field changed for the defaulting and validation cases.
 */
export interface TestObjects {
  /** The object's name read from a variable holding it: `created.metadata?.name`. */
  readonly nameRead: (variable: string) => string;
  /** The statement that leaves the defaulted field out of the object in a variable. */
  readonly unsetDefaulted: ((variable: string) => string) | undefined;
  /** The statement that empties the validated field of the object in a variable. */
  readonly invalidate: ((variable: string) => string) | undefined;
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

/** A number, a quoted string or a boolean, as source text. */
const LITERAL = /^(-?\d+(\.\d+)?|'[^'\\]*'|"[^"\\]*"|true|false)$/;

/**
 * The defaulter and validator as the project has them, when the webhook test is written for code
 * that exists already: the test must check what that code does, which the kind's fields may no
 * longer suggest (a second version since, or fields changed).
 */
export interface WrittenWebhooks {
  readonly defaulter?: string;
  readonly validator?: string;
}

/**
 * Chooses the examples of a kind's webhooks from the fields it has: the first optional scalar
 * without a CRD default is defaulted, the first string the schema lets be empty must not be.
 * A kind without such fields (a deploy-image kind: its fields have defaults and bounds) gets a
 * defaulter with the example in a comment and a validator of its name's length. With `written`,
 * the examples are those the written defaulter and validator use, or none.
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
  written: WrittenWebhooks = {},
): KindExamples {
  const specField = shape && fieldOf(shape, 'spec');
  const spec =
    specField?.type.kind === 'object' ? { field: specField, fields: specField.type.fields } : undefined;
  const nameRead = shape && nameReadOf(shape);
  const specRead = (v: string): string => member(v, 'spec');
  const specOptional = specField?.optional ?? false;
  const fieldRead = (v: string, name: string): string => member(specRead(v), name, specOptional);
  const candidates = spec && nameRead ? defaultingCandidates(spec.fields) : [];
  const defaulted =
    written.defaulter === undefined
      ? candidates[0]
      : writtenDefault(candidates, written.defaulter, (name) => member(specRead(variable), name));
  const validated = !(spec && nameRead)
    ? undefined
    : written.validator === undefined
      ? validationCandidates(spec.fields, spec.field, otherVersions)[0]
      : validationCandidates(spec.fields, spec.field, []).find((field) =>
          written.validator?.includes(fieldRead(variable, field.name)),
        );
  const nameRuleRead = nameRead && `${nameRead(variable)} ?? ''`;
  const nameRuleWritten = written.validator === undefined || written.validator.includes(nameRuleRead ?? '');
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
    nameRule: validated === undefined && nameRuleRead && nameRuleWritten ? { read: nameRuleRead } : undefined,
    objects: nameRead && {
      nameRead,
      unsetDefaulted: defaulted && ((v) => `delete ${fieldRead(v, defaulted.field.name)};`),
      invalidate: validated && ((v) => emptyField(v, validated.name, spec)),
    },
    exampleField: exampleField(variable, spec?.fields ?? []),
  };
}

/** How the name of an object of the kind is read, where its metadata is an ObjectMeta. */
function nameReadOf(shape: KindShape): ((variable: string) => string) | undefined {
  const metadata = fieldOf(shape, 'metadata');
  if (metadata?.type.kind !== 'opaque' || metadata.type.name !== 'V1ObjectMeta') return undefined;
  return (v) => member(member(v, 'metadata'), 'name', metadata.optional);
}

/** The optional scalars a defaulter can fill in, each with the value it would. */
function defaultingCandidates(fields: readonly FieldShape[]): { field: FieldShape; value: string }[] {
  return fields.flatMap((field) => {
    // A CRD default is applied before the webhook is called: the webhook would never see it unset.
    if (!field.optional || field.schema.default !== undefined || !SCALARS.has(field.type.kind)) return [];
    const value = sampleLiteral(field.type, field.schema, {}, 'default');
    return value === undefined ? [] : [{ field, value }];
  });
}

/**
 * The candidate a written defaulter fills in (`webApp.spec.replicas ??= 2;` on a line of code, not
 * of a comment), with the value it writes.
 */
function writtenDefault(
  candidates: readonly { field: FieldShape; value: string }[],
  defaulter: string,
  target: (name: string) => string,
): { field: FieldShape; value: string } | undefined {
  const code = defaulter
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => !line.startsWith('//') && !line.startsWith('*'));
  for (const { field } of candidates) {
    const assignment = `${target(field.name)} ??= `;
    const line = code.find((l) => l.startsWith(assignment) && l.endsWith(';'));
    const value = line?.slice(assignment.length, -1);
    // Only a literal can be written into the test; a constant or a computed value is not checked.
    if (value !== undefined && LITERAL.test(value)) return { field, value };
  }
  return undefined;
}

/**
 * The statement that empties a spec field of the object in `v`. Where the spec may be left out, a
 * sample without one still gets the field: `??= {}` where every spec field is optional.
 */
function emptyField(
  v: string,
  name: string,
  spec: { field: FieldShape; fields: readonly FieldShape[] } | undefined,
): string {
  const specRead = member(v, 'spec');
  if (!spec?.field.optional) return `${member(specRead, name)} = '';`;
  if (spec.fields.every((f) => f.optional)) return `(${specRead} ??= {})${member('', name)} = '';`;
  return `if (${specRead}) ${member(specRead, name)} = '';`;
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
function validationCandidates(
  fields: readonly FieldShape[],
  spec: FieldShape,
  otherVersions: readonly (KindShape | undefined)[],
): FieldShape[] {
  if (!celFree(spec.schema)) return [];
  const inEveryVersion = (field: FieldShape): boolean =>
    otherVersions.every((other) => {
      const otherSpec = other && fieldOf(other, 'spec');
      const counterpart = otherSpec?.type.kind === 'object' ? fieldOf(otherSpec.type, field.name) : undefined;
      return counterpart !== undefined && sameShape(counterpart.type, field.type);
    });
  return fields.filter(
    (field) =>
      field.type.kind === 'string' &&
      (field.optional || inEveryVersion(field)) &&
      celFree(field.schema) &&
      (field.schema.minLength ?? 0) === 0 &&
      field.schema.pattern === undefined &&
      field.schema.format === undefined &&
      field.schema.enum === undefined,
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
