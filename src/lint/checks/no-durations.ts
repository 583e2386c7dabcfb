import { leafTypeCheck } from '../leaf-type-check.ts';

export const noDurations = leafTypeCheck({
  name: 'nodurations',
  help: 'no Duration: an integer with its unit in the name',
  enabledByDefault: true,
  matches: (type) => type.kind === 'known' && type.name === 'Duration',
  message: (path) =>
    `field ${path} should not use a Duration. Use an integer type with units in the name to avoid ` +
    'the need for clients to implement Go style duration parsing',
  fix: 'declare an int32 with the unit in its name, e.g. `timeoutSeconds?: int32`',
});
