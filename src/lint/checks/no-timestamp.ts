import type { LintCheck } from '../lint-check.ts';

const TIMESTAMP = /timestamp/i;

export const noTimestamp: LintCheck = {
  name: 'notimestamp',
  help: 'fields are named `...Time`, not `...Timestamp`',
  enabledByDefault: true,
  configure(settings) {
    settings.done();
    return (api, report) => {
      for (const { field, path } of api.fields) {
        if (!TIMESTAMP.test(field.name)) continue;
        const renamed = field.name.replace(/Timestamp/g, 'Time').replace(/timestamp/gi, 'time');
        report(
          field.location,
          `field ${path}: prefer use of the term 'time' over 'timestamp'`,
          `rename it ${renamed}`,
        );
      }
    };
  },
};
