import { leafTypeCheck } from '../leaf-type-check.ts';

/**
 * Only int32 and int64. The runtime's `int` (Go's int: an integer without a format) is the one
 * other integer TypeScript types can say; a bare `number` is a float, which nofloats reports.
 */
export const integers = leafTypeCheck({
  name: 'integers',
  help: 'integers are int32 or int64, not the format-less int',
  enabledByDefault: true,
  matches: (type) => type.kind === 'integer' && type.format === undefined,
  message: (path) =>
    `field ${path} should not use an int. Use int32 or int64 depending on bounding requirements`,
  fix: 'declare it int32 or int64 (from the runtime), with +kubebuilder:validation:Minimum/Maximum for its range',
});
