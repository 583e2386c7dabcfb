import type { LintCheck } from '../lint-check.ts';

/**
 * A field's doc comment starts with its serialized name, as a user reads it in YAML and
 * `kubectl explain` (the description is the comment without its markers).
 */
export const commentStart: LintCheck = {
  name: 'commentstart',
  help: "a field's doc comment starts with its name, e.g. `/** replicas is ... */`",
  enabledByDefault: true,
  configure(settings) {
    settings.done();
    return (api, report) => {
      for (const { field, path } of api.fields) {
        const description = field.description;
        if (description === '') {
          report(
            field.location,
            `field ${path} is missing godoc comment`,
            `add \`/** ${field.name} is ... */\` above it`,
          );
          continue;
        }
        const [first = ''] = description.split(/\s/, 1);
        if (first === field.name) continue;
        const fix =
          first.toLowerCase() === field.name.toLowerCase()
            ? `replace the first word with \`${field.name}\``
            : `start it with \`${field.name} ...\``;
        report(field.location, `godoc for field ${path} should start with '${field.name} ...'`, fix);
      }
    };
  },
};
