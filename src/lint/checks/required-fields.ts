import type { LintCheck } from '../lint-check.ts';
import { presenceMarkers } from '../presence-markers.ts';

/**
 * kube-api-linter's requiredfields wants a required field serialized so that its zero value is not
 * sent by mistake (omitempty, pointers). In TypeScript there are no zero values: the question is
 * whether the type agrees with the schema. A required field written `x?:` lets code build objects
 * the API server rejects, so it is reported.
 */
export const requiredFields: LintCheck = {
  name: 'requiredfields',
  help: 'a field marked +required is declared without `?`',
  enabledByDefault: true,
  configure(settings) {
    const policy = settings.oneOf('policy', ['SuggestFix', 'Warn'], 'SuggestFix');
    settings.done();
    return (api, report) => {
      for (const field of api.fields) {
        const [marker] = presenceMarkers(field).required;
        if (!marker || !field.field.optional) continue;
        report(
          field.field.location,
          `field ${field.path} is marked ${marker.text} but declared \`${field.field.name}?:\`: ` +
            'TypeScript lets code leave it out, and the API server rejects objects without it',
          `declare it \`${field.field.name}:\` (no \`?\`), or mark it +optional`,
          policy === 'Warn' ? 'warning' : 'error',
        );
      }
    };
  },
};
