import { OMIT_SETTINGS } from '../go-only-settings.ts';
import { presenceCheck } from '../presence-check.ts';

/**
 * kube-api-linter's requiredfields wants a required field serialized so that its zero value is not
 * sent by mistake (omitempty, pointers). In TypeScript there are no zero values: the question is
 * whether the type agrees with the schema. A required field written `x?:` lets code build objects
 * the API server rejects, so it is reported.
 */
export const requiredFields = presenceCheck({
  name: 'requiredfields',
  help: 'a field marked +required is declared without `?`',
  side: 'required',
  message: (field, marker) =>
    `field ${field.path} is marked ${marker.text} but declared \`${field.field.name}?:\`: ` +
    'TypeScript lets code leave it out, and the API server rejects objects without it',
  fix: (field) => `declare it \`${field.field.name}:\` (no \`?\`), or mark it +optional`,
  goOnlySettings: { pointers: { policy: ['SuggestFix', 'Warn'] }, ...OMIT_SETTINGS },
});
