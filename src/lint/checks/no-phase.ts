import type { LintCheck } from '../lint-check.ts';

const PHASE = /phase/i;

export const noPhase: LintCheck = {
  name: 'nophase',
  help: 'no `phase` fields: conditions say more',
  enabledByDefault: true,
  configure(settings) {
    settings.done();
    return (api, report) => {
      for (const { field, path } of api.fields) {
        if (PHASE.test(field.name))
          report(
            field.location,
            `field ${path}: phase fields are deprecated and conditions should be preferred, avoid phase like enum fields`,
            'report the state as conditions (setCondition from the runtime) instead',
          );
      }
    };
  },
};
