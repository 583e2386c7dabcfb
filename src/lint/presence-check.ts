import type { ParsedMarker } from '../markers/index.ts';
import type { GoOnlySettings } from './go-only-settings.ts';
import type { LintCheck } from './lint-check.ts';
import type { ApiField } from './linted-api.ts';
import { presenceMarkers } from './presence-markers.ts';

/** A check that a field's `?` agrees with its +optional or +required marker. */
export interface PresenceRule {
  readonly name: string;
  readonly help: string;
  /** The markers this check looks at; a field with one of them must be written with `?` iff optional. */
  readonly side: 'optional' | 'required';
  readonly message: (field: ApiField, marker: ParsedMarker) => string;
  readonly fix: (field: ApiField) => string;
  /** kube-api-linter's pointer and omitempty settings for these fields, which Go alone has. */
  readonly goOnlySettings: GoOnlySettings;
}

/** kube-api-linter's `policy: SuggestFix | Warn`: an error with its fix, or a warning. */
export function presenceCheck(rule: PresenceRule): LintCheck {
  return {
    name: rule.name,
    help: rule.help,
    enabledByDefault: true,
    configure(settings) {
      const policy = settings.oneOf('policy', ['SuggestFix', 'Warn'], 'SuggestFix');
      settings.goOnly(rule.goOnlySettings);
      settings.done();
      return (api, report) => {
        for (const field of api.fields) {
          const [marker] = presenceMarkers(field)[rule.side];
          if (!marker || field.field.optional === (rule.side === 'optional')) continue;
          const severity = policy === 'Warn' ? 'warning' : 'error';
          report(field.field.location, rule.message(field, marker), rule.fix(field), severity);
        }
      };
    },
  };
}
