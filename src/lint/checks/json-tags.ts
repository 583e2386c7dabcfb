import { TsoperatorError } from '../../errors.ts';
import type { LintCheck } from '../lint-check.ts';

const CAMEL_CASE = '^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)*$';

/**
 * In TypeScript the property name is the JSON name (there is no tag), so jsontags checks the
 * property names: camelCase, acronyms allowed (`requestTTL`), as kube-api-linter's default regex.
 */
export const jsonTags: LintCheck = {
  name: 'jsontags',
  help: 'field names (the JSON names) are camelCase',
  enabledByDefault: true,
  configure(settings) {
    const source = settings.string('jsonTagRegex', CAMEL_CASE);
    // kube-api-linter's check of a json tag against its Go field name: here the two are one.
    settings.goOnly({ fieldNameMatch: ['SuggestFix', 'Warn', 'Ignore'] });
    settings.done();
    const pattern = compile(source);
    return (api, report) => {
      for (const { field, path } of api.fields) {
        if (!pattern.test(field.name))
          report(
            field.location,
            `field ${path}: json name ${JSON.stringify(field.name)} does not match pattern "${source}"`,
            `rename it in camelCase, e.g. ${camelCase(field.name)}`,
          );
      }
    };
  },
};

function compile(source: string): RegExp {
  try {
    return new RegExp(source, 'u');
  } catch (err) {
    throw new TsoperatorError(
      `lintersConfig.jsontags.jsonTagRegex is not a regular expression: ${String(err)}`,
    );
  }
}

function camelCase(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  const [first = '', ...rest] = words;
  return (
    first.charAt(0).toLowerCase() +
    first.slice(1) +
    rest.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')
  );
}
