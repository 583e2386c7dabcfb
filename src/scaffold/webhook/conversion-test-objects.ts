import { fieldOf, sameShape, type FieldShape, type KindShape, type ValueShape } from './kind-shape.ts';
import { member, sampleLiteral, type SampleOverrides } from './value-literals.ts';
import type { TestObjects } from './webhook-examples.ts';

/** A field the conversion test checks on both versions after the round trip. */
export interface RoundTripCheck {
  /** The field read from the variable holding the hub object, once its apiVersion was checked: `hub.spec?.title`. */
  readonly hubRead: string;
  readonly spokeRead: string;
  /** The value the test wrote, as source text. */
  readonly value: string;
}

/** How the webhook test writes a spoke object and what it checks once it went through the hub. */
export interface SpokeTest {
  readonly spec: string;
  readonly extraFields: TestObjects['extraFields'];
  readonly checks: readonly RoundTripCheck[];
}

const SCALARS: ReadonlySet<ValueShape['kind']> = new Set(['string', 'number', 'integer', 'boolean', 'enum']);

/**
 * The spoke object of the conversion test: its required fields, and each optional scalar both
 * versions have with the same type, so that the test sees values cross the hub and come back.
 * Undefined when the spoke has a required field no sample can be written for.
 */
export function spokeTest(
  hub: KindShape,
  spoke: KindShape,
  spokeObjects: TestObjects,
): SpokeTest | undefined {
  const spokeSpec = fieldOf(spoke, 'spec');
  const hubSpec = fieldOf(hub, 'spec');
  if (spokeSpec?.type.kind !== 'object' || hubSpec?.type.kind !== 'object') return undefined;
  const hubFields = hubSpec.type.fields;
  const shared = spokeSpec.type.fields.filter((field) => {
    const counterpart = hubFields.find((f) => f.name === field.name);
    return (
      counterpart !== undefined && sameShape(counterpart.type, field.type) && SCALARS.has(field.type.kind)
    );
  });
  const overrides: Record<string, string> = {};
  const checks: RoundTripCheck[] = [];
  for (const field of shared) {
    const value = sampleLiteral(field.type, field.schema);
    if (value === undefined) continue;
    if (field.optional) overrides[field.name] = value;
    // The test's assertions narrow: after the first, `hub` and its spec are known to be there.
    const first = checks.length === 0;
    checks.push(check(field, value, first && hubSpec.optional, first && spokeSpec.optional));
  }
  const spec = sampleLiteral(spokeSpec.type, spokeSpec.schema, overrides satisfies SampleOverrides);
  return spec === undefined ? undefined : { spec, extraFields: spokeObjects.extraFields, checks };
}

function check(
  field: FieldShape,
  value: string,
  hubSpecChain: boolean,
  spokeSpecChain: boolean,
): RoundTripCheck {
  return {
    hubRead: member(member('hub', 'spec'), field.name, hubSpecChain),
    spokeRead: member(member('spoke', 'spec'), field.name, spokeSpecChain),
    value,
  };
}
