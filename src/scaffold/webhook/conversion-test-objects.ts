import { fieldOf, sameShape, type KindShape, type ValueShape } from './kind-shape.ts';
import { isIdentifier, member } from './value-literals.ts';

/**
 * What the conversion test compares once the spoke's sample went through the hub: the fields both
 * versions have with the same type, read from the object written (`written`), the hub (`hub`) and the
 * spoke read back (`spoke`), each as an object literal of `name: read` source text. The reads agree
 * in both versions, and with what the sample set; fields it left out may have been defaulted.
 */
export interface SpokeTest {
  readonly written: string;
  readonly hub: string;
  readonly spoke: string;
}

const SCALARS: ReadonlySet<ValueShape['kind']> = new Set(['string', 'number', 'integer', 'boolean', 'enum']);

/**
 * The round trip of the conversion test, or undefined when the versions share no scalar spec field
 * (the test then checks that the object is served in both versions).
 */
export function spokeTest(hub: KindShape, spoke: KindShape): SpokeTest | undefined {
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
  if (shared.length === 0) return undefined;
  // An object literal is no reference: asserting on it narrows nothing, so every read keeps its `?.`.
  const fieldsOf = (variable: string, specOptional: boolean): string =>
    `{ ${shared.map((f) => `${memberKey(f.name)}: ${member(member(variable, 'spec', specOptional), f.name, specOptional)}`).join(', ')} }`;
  return {
    written: fieldsOf('written', spokeSpec.optional),
    hub: fieldsOf('hub', hubSpec.optional),
    spoke: fieldsOf('spoke', spokeSpec.optional),
  };
}

function memberKey(name: string): string {
  return isIdentifier(name) ? name : JSON.stringify(name);
}
