import type { TypeModel } from '../gen/crd/type-model.ts';
import type { LintCheck } from './lint-check.ts';
import { leafTypes } from './resolve-type.ts';

/** What a check that forbids a kind of value (floats, booleans, durations) says about it. */
export interface LeafTypeRule {
  readonly name: string;
  readonly help: string;
  readonly enabledByDefault: boolean;
  /** True for a value type the check forbids, found below lists, maps, aliases and `| null`. */
  readonly matches: (type: TypeModel) => boolean;
  readonly message: (path: string) => string;
  readonly fix: string;
}

/** A check, without settings, that reports each field whose values are of a type `rule` forbids. */
export function leafTypeCheck(rule: LeafTypeRule): LintCheck {
  return {
    name: rule.name,
    help: rule.help,
    enabledByDefault: rule.enabledByDefault,
    configure(settings) {
      settings.done();
      return (api, report) => {
        for (const field of api.fields) {
          if (leafTypes(field.field.type, api.types).some((leaf) => rule.matches(leaf.type)))
            report(field.field.location, rule.message(field.path), rule.fix);
        }
      };
    },
  };
}
