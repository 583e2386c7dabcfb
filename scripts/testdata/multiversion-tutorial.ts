import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import {
  cronjobTutorial,
  EXAMPLE_FIELD,
  SAMPLE_SPEC,
  SCAFFOLD_INVALID_CASE,
  SPEC,
  TUTORIAL_INVALID_CASES, STATUS_END, TUTORIAL_STATUS_END, TUTORIAL_TYPES_IMPORT, TYPES_IMPORT } from './cronjob-tutorial.ts';
import { appendTo, userEdit } from './user-edit.ts';
import type { SampleContext } from './sample-projects.ts';

/*
 * The book's Multi-Version tutorial (docs/tutorial/multiversion.md): the CronJob tutorial's project,
 * then a v2 whose schedule is a structure, converted through v1 by a conversion webhook. v1 stays
 * the storage version here: the page's last step, moving it to v2, is a change made to a running
 * cluster, which the page's commands make and CI runs.
 */

/** v1's schedule field, which v2 replaces with a structure. */
const V1_SCHEDULE = `  // +kubebuilder:validation:MinLength:=0
  // +required
  /** schedule in Cron format, see https://en.wikipedia.org/wiki/Cron. */
  schedule: string;`;

const V2_SCHEDULE = `  // +required
  /** schedule says when the CronJob runs, one field for each part of a Cron schedule. */
  schedule: CronSchedule;`;

/** v2's schedule: the five parts of a Cron schedule, each a field of its own. */
const CRON_SCHEDULE = `

// #region schedule

/** CronSchedule is a Cron schedule, one field for each of its five parts; \`*\` where left out. */
export interface CronSchedule {
  // +optional
  /** minute of the hour: 0-59. */
  minute?: CronField;

  // +optional
  /** hour of the day: 0-23. */
  hour?: CronField;

  // +optional
  /** dayOfMonth is the day of the month: 1-31. */
  dayOfMonth?: CronField;

  // +optional
  /** month of the year: 1-12. */
  month?: CronField;

  // +optional
  /** dayOfWeek is the day of the week: 0-6, Sunday first. */
  dayOfWeek?: CronField;
}

/** CronField is one part of a Cron schedule: a number, a range, a list or a step, e.g. \`*\\/5\`. */
export type CronField = string;
// #endregion schedule`;

/** The v2 sample: the v1 sample's, its schedule a structure. */
const V2_SAMPLE_SPEC = SAMPLE_SPEC.replace("  schedule: '*/1 * * * *'", "  schedule:\n    minute: '*/1'");

/** The scaffold's note on the field it cannot convert, which the tutorial's conversion does. */
const SCHEDULE_NOTE =
  " * - spec.schedule is of another type in v1 than in v2: converted from v2, it is set to ''; converted\n" +
  ' *   from v1, it is set to { }.\n';

/** The schedule's conversion, which the scaffold leaves to the reader (the types differ). */
const SCHEDULE_CONVERSION = `
// #region schedule-conversion
/**
 * v1's schedule text, kept on a v2 object where the five fields do not give it back as written
 * (\`@hourly\`, two spaces): a conversion must lose nothing on the way there and back.
 */
export const SCHEDULE_TEXT_ANNOTATION = 'batch.tutorial.tsoperator.io/schedule-text';

/** The descriptors Kubernetes' CronJob reads, as five fields. */
const DESCRIPTORS = new Map([
  ['@yearly', '0 0 1 1 *'],
  ['@annually', '0 0 1 1 *'],
  ['@monthly', '0 0 1 * *'],
  ['@weekly', '0 0 * * 0'],
  ['@daily', '0 0 * * *'],
  ['@midnight', '0 0 * * *'],
  ['@hourly', '0 * * * *'],
]);

/** A v2 schedule as v1's Cron text: a part left out is \`*\`. */
function cronText(schedule: CronSchedule): string {
  const { minute = '*', hour = '*', dayOfMonth = '*', month = '*', dayOfWeek = '*' } = schedule;
  return [minute, hour, dayOfMonth, month, dayOfWeek].join(' ');
}

/** v1's Cron text as a v2 schedule, a field for each part. */
function cronSchedule(text: string): CronSchedule {
  const fields = (DESCRIPTORS.get(text.trim()) ?? text).trim().split(/\\s+/);
  const [minute, hour, dayOfMonth, month, dayOfWeek] = fields;
  return { minute, hour, dayOfMonth, month, dayOfWeek };
}

/** \`spoke\`, with v1's schedule text in an annotation when its fields do not give it back. */
function keepScheduleText(spoke: CronJobV2, text: string): CronJobV2 {
  if (cronText(spoke.spec.schedule) === text) return spoke;
  const annotations = { ...spoke.metadata?.annotations, [SCHEDULE_TEXT_ANNOTATION]: text };
  return { ...spoke, metadata: { ...spoke.metadata, annotations } };
}

/** \`hub\` with the schedule text kept on its way through v2, unless v2's schedule changed since. */
function restoreScheduleText(hub: CronJob): CronJob {
  const { [SCHEDULE_TEXT_ANNOTATION]: text, ...annotations } = hub.metadata?.annotations ?? {};
  if (text === undefined) return hub;
  const metadata: NonNullable<CronJob['metadata']> = { ...hub.metadata, annotations };
  // An object that had no annotations has none again: undefined is left out of the JSON.
  if (Object.keys(annotations).length === 0) metadata.annotations = undefined;
  const unchanged = cronText(cronSchedule(text)) === hub.spec.schedule;
  return { ...hub, metadata, spec: { ...hub.spec, schedule: unchanged ? text : hub.spec.schedule } };
}
// #endregion schedule-conversion
`;

/** Makes the Multi-Version tutorial's project: the CronJob tutorial's, then CronJob v2. */
export async function multiversionTutorial(context: SampleContext): Promise<void> {
  const { tsoperator, dir } = context;
  await cronjobTutorial(context);
  await tsoperator('create', 'api', '--group', 'batch', '--version', 'v2', '--kind', 'CronJob', '--no-controller');
  await userEdit(dir, 'src/api/v2/cronjob.types.ts', [
    [TYPES_IMPORT, TUTORIAL_TYPES_IMPORT],
    [EXAMPLE_FIELD, SPEC.replace(V1_SCHEDULE, V2_SCHEDULE) + CRON_SCHEDULE],
    [STATUS_END, TUTORIAL_STATUS_END],
    [
      '  // +optional\n  /** spec is the desired state of the CronJob. */\n  spec?: CronJobSpec;',
      '  // +required\n  /** spec is the desired state of the CronJob. */\n  spec: CronJobSpec;',
    ],
  ]);
  await userEdit(dir, 'config/samples/batch_v2_cronjob.yaml', [['  # Set the fields of CronJobSpec here.\n  foo: bar', V2_SAMPLE_SPEC]]);
  await tsoperator('manifests');
  await tsoperator('create', 'webhook', '--group', 'batch', '--version', 'v1', '--kind', 'CronJob', '--conversion', '--spoke', 'v2');
  await userEdit(dir, 'src/webhooks/v2/cronjob.conversion.ts', conversionEdits());
  await appendTo(dir, 'src/webhooks/v2/cronjob.conversion.ts', SCHEDULE_CONVERSION);
  // The reader merges the webhook test regenerated for the new version into theirs: the new one,
  // with their cases put back.
  const test = 'test/webhooks/v1/cronjob.webhook.test.ts';
  await rename(join(dir, `${test}.tsoperator-new`), join(dir, test));
  await userEdit(dir, test, mergedWebhookTestEdits());
}

/** The conversion of the schedule, both ways. */
function conversionEdits(): (readonly [string, string])[] {
  return [
    [
      "import type { CronJob as CronJobV2 } from '../../api/v2/cronjob.types.ts';",
      "import type { CronJob as CronJobV2, CronSchedule } from '../../api/v2/cronjob.types.ts';",
    ],
    [
      SCHEDULE_NOTE,
      ' * - spec.schedule is Cron text in v1 and its five parts in v2: each converts to the other, and v1\'s\n' +
        ' *   text is kept in an annotation where the parts would not give it back as written.\n',
    ],
    [
      '    return { ...spoke, spec: specToV1(spoke.spec) };',
      '    return restoreScheduleText({ ...spoke, spec: specToV1(spoke.spec) });',
    ],
    [
      '    return { ...hub, spec: specToV2(hub.spec) };',
      '    return keepScheduleText({ ...hub, spec: specToV2(hub.spec) }, hub.spec.schedule);',
    ],
    ["    schedule: '',\n", '    schedule: cronText(spec.schedule),\n'],
    ['    schedule: {},\n', '    schedule: cronSchedule(spec.schedule),\n'],
  ];
}

/**
 * A v1 schedule that five fields do not give back as written, through v2 and back: read as v2
 * and written back unchanged, it reads as v1 as it was written.
 */
const SCHEDULE_TEXT_CASE = `  // #region schedule-text
  await t.test('keeps v1 schedule text that v2 cannot hold as written', async () => {
    for (const [name, schedule] of [
      ['hourly', '@hourly'],
      ['two-spaces', '*/5  * * * *'],
    ] as const) {
      const written = await cronJob(name);
      written.spec.schedule = schedule;
      await client.create(written);
      const asV2 = await client.get(CronJobV2Kind, { ...key, name });
      assert.ok(asV2);
      await client.update(asV2);

      const back = await client.get(CronJobKind, { ...key, name });

      assert.equal(back?.spec.schedule, schedule);
      assert.equal(back?.metadata?.annotations, undefined);
    }
  });
  // #endregion schedule-text`;

/** The tutorial's webhook cases, in the test regenerated with the conversion's. */
function mergedWebhookTestEdits(): (readonly [string, string])[] {
  return [
    [
      '    delete defaulted.spec.suspend;\n\n',
      '    delete defaulted.spec.suspend;\n    delete defaulted.spec.successfulJobsHistoryLimit;\n' +
        '    delete defaulted.spec.failedJobsHistoryLimit;\n\n',
    ],
    [
      '    assert.equal(created.spec.suspend, false);\n',
      '    assert.equal(created.spec.suspend, false);\n    assert.equal(created.spec.successfulJobsHistoryLimit, 3);\n' +
        '    assert.equal(created.spec.failedJobsHistoryLimit, 1);\n',
    ],
    [SCAFFOLD_INVALID_CASE, TUTORIAL_INVALID_CASES],
    [
      '    // The conversion does not keep all of v2 yet (see its notes): once it does, check the\n' +
        '    // whole round trip here with assert.partialDeepStrictEqual(spoke, written).\n',
      '    // #region round-trip\n    // A lossless conversion: all the sample set comes back as written, through v1.\n' +
        '    assert.partialDeepStrictEqual(spoke, written);\n    // #endregion round-trip\n',
    ],
    [
      "  await t.test('v2 converts to v1 and back through the API server', async () => {",
      SCHEDULE_TEXT_CASE + "\n\n  await t.test('v2 converts to v1 and back through the API server', async () => {",
    ],
  ];
}
