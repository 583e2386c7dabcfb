import { leafTypeCheck } from '../leaf-type-check.ts';

export const noBools = leafTypeCheck({
  name: 'nobools',
  help: 'no `boolean`: a string enum can grow a third value',
  enabledByDefault: false,
  matches: (type) => type.kind === 'primitive' && type.type === 'boolean',
  message: (path) =>
    `field ${path} should not use a bool. Use a string type with meaningful constant values as an enum`,
  fix: "declare it as a union of string literals, e.g. `'Enabled' | 'Disabled'`",
});
