import type { ParsedMarker } from '../../markers/index.ts';
import type { LintCheck } from '../lint-check.ts';
import type { LintReport } from '../lint-finding.ts';
import type { ApiField } from '../linted-api.ts';
import { presenceMarkers } from '../presence-markers.ts';

const OPTIONAL = ['optional', 'kubebuilder:validation:Optional'] as const;
const REQUIRED = ['required', 'kubebuilder:validation:Required'] as const;

interface Preferred {
  readonly optional: string;
  readonly required: string;
}

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
    const preferred: Preferred = {
      optional: settings.oneOf('preferredOptionalMarker', OPTIONAL, 'optional'),
      required: settings.oneOf('preferredRequiredMarker', REQUIRED, 'required'),
    };
    const questionMark = settings.boolean('questionMarkIsOptional', true);
    settings.done();
    return (api, report) => {
      for (const field of api.fields) checkField(field, preferred, questionMark, report);
    };
  },
};

function checkField(field: ApiField, preferred: Preferred, questionMark: boolean, report: LintReport): void {
  const { optional, required } = presenceMarkers(field);
  const at = field.field.location;
  if (optional.length > 0 && required.length > 0) {
    report(
      at,
      `field ${field.path} must not be marked as both optional and required`,
      'keep one of the two markers',
    );
    return;
  }
  const side = optional.length > 0 ? preferred.optional : preferred.required;
  // +k8s:optional and +k8s:required are declarative validation's: as in kube-api-linter, they do
  // not stand for the schema's +optional or +required.
  const declarative = [...optional, ...required].filter(isDeclarative);
  const schema = [...optional, ...required].filter((marker) => !isDeclarative(marker));
  if (schema.length === 0) {
    if (questionMark && field.field.optional) return;
    const [beside] = declarative;
    const fix = beside
      ? `add \`// +${side}\` beside \`${beside.text}\``
      : field.field.optional
        ? `add \`// +${preferred.optional}\` above it`
        : `add \`// +${preferred.required}\` above it, or write \`${field.field.name}?:\` with \`// +${preferred.optional}\``;
    report(at, `field ${field.path} must be marked as ${preferred.optional} or ${preferred.required}`, fix);
    return;
  }
  const wrong = schema.find((marker) => marker.definition.name !== side);
  if (wrong)
    report(
      wrong.location,
      `field ${field.path} should use marker +${side} instead of +${wrong.definition.name}`,
      `replace \`${wrong.text}\` with \`+${side}\``,
    );
}

function isDeclarative(marker: ParsedMarker): boolean {
  return marker.definition.name.startsWith('k8s:');
}
