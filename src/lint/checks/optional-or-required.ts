import type { LintCheck } from '../lint-check.ts';
import { presenceMarkers } from '../presence-markers.ts';

const OPTIONAL = ['optional', 'kubebuilder:validation:Optional'] as const;
const REQUIRED = ['required', 'kubebuilder:validation:Required'] as const;

/**
 * Every field says whether it is optional or required. A `?` says optional in TypeScript itself
 * (the compiler makes code handle its absence, and the generator leaves it out of `required`), so it
 * counts unless `questionMarkIsOptional: false`; a field without `?` only says it is required with a
 * marker, because no `?` is also what a forgotten decision looks like, and required is the promise
 * an API cannot take back.
 */
export const optionalOrRequired: LintCheck = {
  name: 'optionalorrequired',
  help: 'every field is marked +optional or +required (a `?` says optional)',
  enabledByDefault: true,
  configure(settings) {
    const preferredOptional = settings.oneOf('preferredOptionalMarker', OPTIONAL, 'optional');
    const preferredRequired = settings.oneOf('preferredRequiredMarker', REQUIRED, 'required');
    const questionMark = settings.boolean('questionMarkIsOptional', true);
    settings.done();
    return (api, report) => {
      for (const field of api.fields) {
        const { optional, required } = presenceMarkers(field);
        const at = field.field.location;
        if (optional.length > 0 && required.length > 0) {
          report(
            at,
            `field ${field.path} must not be marked as both optional and required`,
            'keep one of the two markers',
          );
          continue;
        }
        if (optional.length === 0 && required.length === 0) {
          if (questionMark && field.field.optional) continue;
          const fix = field.field.optional
            ? `add \`// +${preferredOptional}\` above it`
            : `add \`// +${preferredRequired}\` above it, or write \`${field.field.name}?:\` with \`// +${preferredOptional}\``;
          report(
            at,
            `field ${field.path} must be marked as ${preferredOptional} or ${preferredRequired}`,
            fix,
          );
          continue;
        }
        const preferred = optional.length > 0 ? preferredOptional : preferredRequired;
        const others = [...optional, ...required].filter((m) => !m.definition.name.startsWith('k8s:'));
        const wrong = others.find((m) => m.definition.name !== preferred);
        if (wrong)
          report(
            wrong.location,
            `field ${field.path} should use marker +${preferred} instead of +${wrong.definition.name}`,
            `replace \`${wrong.text}\` with \`+${preferred}\``,
          );
      }
    };
  },
};
