import { OMIT_SETTINGS } from '../go-only-settings.ts';
import { presenceCheck } from '../presence-check.ts';

/**
 * kube-api-linter's optionalfields wants an optional field to be a pointer with omitempty, so that
 * "unset" is told apart from a zero value and left out of the JSON. TypeScript's `?` does both: an
 * optional field declared without it claims a value is always there, and code reading an object
 * from the API server crashes on one that has none.
 */
export const optionalFields = presenceCheck({
  name: 'optionalfields',
  help: 'a field marked +optional is declared with `?`',
  side: 'optional',
  message: (field, marker) =>
    `field ${field.path} is marked ${marker.text} but declared \`${field.field.name}:\`: ` +
    'objects read from the API server may lack it, and the type says it is always there',
  fix: (field) => `declare it \`${field.field.name}?:\``,
  goOnlySettings: {
    pointers: { preference: ['Always', 'WhenRequired'], policy: ['SuggestFix', 'Warn'] },
    ...OMIT_SETTINGS,
  },
});
