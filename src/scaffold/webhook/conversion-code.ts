import { fieldOf, sameShape, type FieldShape, type KindShape } from './kind-shape.ts';
import { literal, member, propertyName, zeroLiteral } from './value-literals.ts';

/** One side of a conversion: the type's name in the conversion file, its version and shape. */
export interface ConversionSide {
  /** `WebApp` for the hub, `WebAppV2` for a spoke. */
  readonly type: string;
  readonly version: string;
  readonly shape: KindShape;
}

/** The code of a spoke's conversion, written against the fields both versions have. */
export interface ConversionCode {
  /** The expression `convertTo(spoke)` returns: `{ ...spoke }` while the versions agree. */
  readonly toHub: string;
  /** The expression `convertFrom(hub)` returns. */
  readonly fromHub: string;
  /** Functions the expressions call, as source text. */
  readonly helpers: readonly string[];
  /** What does not survive the way through the other version, one sentence each. */
  readonly notes: readonly string[];
  /** Whether a field has no value to start from, so the code throws a ConversionError for it. */
  readonly usesMissing: boolean;
  /** Whether every field of the spoke comes back from the hub as it was: a lossless round trip. */
  readonly keepsSpoke: boolean;
}

/** Root fields the conversion leaves to the runtime, which sets them from the source object. */
const TYPE_META = new Set(['apiVersion', 'kind', 'metadata']);

const MISSING = 'missing';

/**
 * The conversion of a spoke to and from the hub, field by field where the two differ: a field both
 * versions have with the same type is copied, one only the target has starts from its CRD default
 * or zero value, one only the source has is dropped (each said in a note). Compiles whatever fields
 * the versions have; the user then writes the conversions only they can know (a renamed field).
 *
 * @example
 * ```ts
 * const code = conversionCode(
 *   { type: 'WebApp', version: 'v1', shape: hubShape },
 *   { type: 'WebAppV2', version: 'v2', shape: spokeShape },
 * );
 * ```
 */
export function conversionCode(hub: ConversionSide, spoke: ConversionSide): ConversionCode {
  const helpers: string[] = [];
  const direction = (from: ConversionSide, to: ConversionSide, variable: string): string => {
    const parts: string[] = [];
    for (const target of to.shape.fields.filter((f) => !TYPE_META.has(f.name))) {
      const source = fieldOf(from.shape, target.name);
      const read = member(variable, target.name);
      const entry = (value: string): void => void parts.push(`${propertyName(target.name)}: ${value}`);
      if (source && sameShape(source.type, target.type)) {
        // Copied by the spread, with a value for when a required field is missing from the source.
        if (source.optional && !target.optional) entry(`${read} ?? ${fallback(target, target.name)}`);
        continue;
      }
      if (source?.type.kind === 'object' && target.type.kind === 'object') {
        const part = objectPart(from, to, source, target, read);
        if (part.helper !== undefined) helpers.push(part.helper);
        entry(part.value);
        continue;
      }
      // A source field of another type must not be spread into the target: it is overwritten.
      if (!target.optional) entry(fallback(target, target.name));
      else if (source) entry('undefined');
    }
    return `{ ${[`...${variable}`, ...parts].join(', ')} }`;
  };
  const toHub = direction(spoke, hub, 'spoke');
  const fromHub = direction(hub, spoke, 'hub');
  const code = [toHub, fromHub, ...helpers].join('\n');
  const notes = differences(hub, spoke, hub.shape.fields, spoke.shape.fields, '');
  const keepsSpoke = keeps(hub.shape.fields, spoke.shape.fields, '');
  return { toHub, fromHub, helpers, notes, usesMissing: code.includes(`${MISSING}(`), keepsSpoke };
}

/** Whether each field of `spokeFields` has its counterpart of the same shape among `hubFields`. */
function keeps(
  hubFields: readonly FieldShape[],
  spokeFields: readonly FieldShape[],
  prefix: string,
): boolean {
  return spokeFields.every((field) => {
    if (prefix === '' && TYPE_META.has(field.name)) return true;
    const inHub = hubFields.find((f) => f.name === field.name);
    if (inHub && sameShape(inHub.type, field.type)) return true;
    // Top-level objects (spec, status) are converted field by field, as `differences` reports them.
    return (
      prefix === '' &&
      inHub?.type.kind === 'object' &&
      field.type.kind === 'object' &&
      keeps(inHub.type.fields, field.type.fields, `${field.name}.`)
    );
  });
}

/**
 * An object part (spec, status) whose fields differ between the versions: `specToV1(spoke.spec)`,
 * with the helper it calls, or an object literal where no field is read from the source.
 */
function objectPart(
  from: ConversionSide,
  to: ConversionSide,
  source: FieldShape,
  target: FieldShape,
  read: string,
): { value: string; helper?: string } {
  const param = source.name.replace(/\W/g, '_');
  const name = `${param}To${upperFirst(to.version)}`;
  const sourceFields = source.type.kind === 'object' ? source.type.fields : [];
  const targetFields = target.type.kind === 'object' ? target.type.fields : [];
  // An absent source part stays absent where the target may lack it too; else its fields are read with ?.
  const returnsUndefined = source.optional && target.optional;
  const chain = source.optional && !returnsUndefined;
  const entries: string[] = [];
  let readsSource = false;
  for (const field of targetFields) {
    const counterpart = sourceFields.find((f) => f.name === field.name);
    const path = `${source.name}.${field.name}`;
    const entry = (value: string): void => void entries.push(`${propertyName(field.name)}: ${value}`);
    if (counterpart && sameShape(counterpart.type, field.type)) {
      readsSource = true;
      const value = member(param, field.name, chain);
      const mayBeUndefined = chain || counterpart.optional;
      entry(field.optional || !mayBeUndefined ? value : `${value} ?? ${fallback(field, path)}`);
    } else if (!field.optional) {
      entry(fallback(field, path));
    }
  }
  const literal = `{ ${entries.join(', ')} }`;
  if (!readsSource && !returnsUndefined) return { value: literal };
  const body = [
    ...(returnsUndefined ? [`if (${param} === undefined) return undefined;`] : []),
    `return ${literal};`,
  ];
  const helper = [
    `/** A ${from.version} ${source.name} as ${to.version} has it. */`,
    `function ${name}(${param}: ${from.type}['${source.name}']): ${to.type}['${target.name}'] {`,
    ...body.map((line) => `  ${line}`),
    '}',
  ].join('\n');
  return { value: `${name}(${read})`, helper };
}

/** A field's CRD default or zero value, or a call that throws where no value can be written. */
function fallback(field: FieldShape, path: string): string {
  return zeroLiteral(field.type, field.schema) ?? `${MISSING}(${literal(path)})`;
}

/**
 * What differs between the versions, a sentence per field: one only a version has, or one of
 * another type in each, and what it becomes converted from the other version.
 */
function differences(
  hub: ConversionSide,
  spoke: ConversionSide,
  hubFields: readonly FieldShape[],
  spokeFields: readonly FieldShape[],
  prefix: string,
): string[] {
  const names = [...new Set([...hubFields, ...spokeFields].map((f) => f.name))].filter(
    (name) => prefix !== '' || !TYPE_META.has(name),
  );
  return names.flatMap((name) => {
    const inHub = hubFields.find((f) => f.name === name);
    const inSpoke = spokeFields.find((f) => f.name === name);
    const path = `${prefix}${name}`;
    if (inHub && inSpoke && sameShape(inHub.type, inSpoke.type)) return [];
    if (inHub?.type.kind === 'object' && inSpoke?.type.kind === 'object' && prefix === '') {
      return differences(hub, spoke, inHub.type.fields, inSpoke.type.fields, `${path}.`);
    }
    if (inHub && inSpoke) {
      const both = inHub.optional && inSpoke.optional;
      const what = both
        ? 'converted either way, it is left out'
        : `${becomes(inHub, path, spoke.version)}; ${becomes(inSpoke, path, hub.version)}`;
      return [`${path} is of another type in ${hub.version} than in ${spoke.version}: ${what}.`];
    }
    const [only, onlyIn, other] = inHub ? [inHub, hub, spoke] : [inSpoke, spoke, hub];
    if (!only) return [];
    const lost = `${path} is ${onlyIn.version}'s only: it is lost on the way through ${other.version}`;
    return [only.optional ? `${lost}.` : `${lost}; ${becomes(only, path, other.version)}.`];
  });
}

/** `converted from v2, it is set to 0`: the value a field takes converted from a version without it. */
function becomes(field: FieldShape, path: string, from: string): string {
  if (field.optional) return `converted from ${from}, it is left out`;
  const value = fallback(field, path);
  if (value.startsWith(MISSING)) return `converted from ${from}, it has no value and the conversion throws`;
  return `converted from ${from}, it is set to ${value}`;
}

function upperFirst(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
