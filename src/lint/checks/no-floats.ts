import type { TypeModel } from '../../gen/crd/type-model.ts';
import { leafTypeCheck } from '../leaf-type-check.ts';

/** `number` is a float in the schema (`type: number`), as are numeric enums with a fraction. */
function isFloat(type: TypeModel): boolean {
  if (type.kind === 'primitive') return type.type === 'number';
  if (type.kind === 'enum' && type.type === 'number')
    return type.values.some((value) => !Number.isInteger(value));
  return false;
}

export const noFloats = leafTypeCheck({
  name: 'nofloats',
  help: 'no `number` (a float in the schema): counts are int32 or int64',
  enabledByDefault: true,
  matches: isFloat,
  message: (path) =>
    `field ${path} should not use a float value because they cannot be reliably round-tripped ` +
    '(`number` is a float in the schema)',
  fix: 'declare it int32 or int64 (from the runtime) for a count; a Quantity or a string for a fraction',
});
