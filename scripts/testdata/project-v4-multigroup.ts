import { appendTo, userEdit } from './user-edit.ts';
import type { SampleContext } from './sample-projects.ts';

/** The example field `create api` writes, which the user replaces with the kind's own. */
const CRONJOB_EXAMPLE_FIELD = `  // +optional
  /** foo is an example field of CronJob: edit cronjob.types.ts to replace it with your own. */
  foo?: string;`;

/**
 * CronJob's fields as Kubebuilder's CronJob tutorial writes them, markers spelled as there
 * (`default:=`, `Minimum:=`); the Job template is left out to keep the sample's CRD small.
 */
const CRONJOB_FIELDS = `  // +kubebuilder:validation:MinLength:=0
  // +required
  /** schedule in Cron format, see https://en.wikipedia.org/wiki/Cron. */
  schedule: string;

  // +kubebuilder:validation:Minimum:=0
  // +optional
  /** startingDeadlineSeconds is the deadline in seconds for starting a job that missed its time. */
  startingDeadlineSeconds?: int64;

  // +kubebuilder:default:=Allow
  // +optional
  /** concurrencyPolicy says how to treat concurrent executions of a Job. */
  concurrencyPolicy?: ConcurrencyPolicy;

  // +optional
  /** suspend tells the controller to suspend subsequent executions. */
  suspend?: boolean;

  // +kubebuilder:validation:Minimum:=0
  // +optional
  /** successfulJobsHistoryLimit is how many finished Jobs to keep. */
  successfulJobsHistoryLimit?: int32;`;

/** The status fields the tutorial's controller reports, after the scaffold's conditions. */
const CRONJOB_STATUS_FIELDS = `  observedGeneration?: int64;

  // +optional
  /** active is how many of the CronJob's Jobs are running. */
  active?: int32;

  // +optional
  /** lastScheduleTime is when a Job was last started. */
  lastScheduleTime?: Time;
}`;

/** The concurrency policy type, declared after the spec as in the tutorial. */
const CONCURRENCY_POLICY = `
/**
 * ConcurrencyPolicy describes how the job will be handled: Allow runs jobs concurrently, Forbid
 * skips a run while the previous one is running, Replace replaces the running job.
 */
// +kubebuilder:validation:Enum=Allow;Forbid;Replace
export type ConcurrencyPolicy = 'Allow' | 'Forbid' | 'Replace';

/** CronJobStatus is the observed state of a CronJob. */`;

/** setup() registers the index reconcile lists its Jobs through, as the tutorial's SetupWithManager. */
const CRONJOB_SETUP = `    // Jobs by the CronJob that controls them: reconcile lists a CronJob's Jobs through this index.
    mgr.cache.indexField(JobKind, JOB_OWNER_KEY, (job) => {
      const owner = getControllerOf(job);
      return owner?.kind === 'CronJob' ? [owner.name] : [];
    });
    mgr.controller('cronjob').for(CronJobKind).owns(JobKind).complete(this);`;

/** apply() counts the CronJob's running Jobs from the cache, through the index. */
const CRONJOB_ACTIVE = `    const generation = cronJob.metadata?.generation;
    const jobs = await this.client.list(JobKind, {
      namespace: cronJob.metadata?.namespace ?? '',
      fieldSelector: \`\${JOB_OWNER_KEY}=\${cronJob.metadata?.name ?? ''}\`,
      signal,
    });
    const active = jobs.items.filter((job) => job.status?.completionTime === undefined).length;`;

/** CronJob v2, as Kubebuilder's multi-version tutorial makes it: the schedule is a structure. */
const CRONJOB_V2_FIELDS = `  // +required
  /** schedule in Cron format, one field for each of its parts. */
  schedule: CronSchedule;

  // +kubebuilder:default:=Allow
  // +optional
  /** concurrencyPolicy says how to treat concurrent executions of a Job. */
  concurrencyPolicy?: 'Allow' | 'Forbid' | 'Replace';

  // +optional
  /** suspend tells the controller to suspend subsequent executions. */
  suspend?: boolean;
}

/** CronSchedule is a Cron schedule, one field for each of its five parts; \`*\` where left out. */
export interface CronSchedule {
  // +optional
  /** minute of the hour. */
  minute?: string;

  // +optional
  /** hour of the day. */
  hour?: string;

  // +optional
  /** dayOfMonth is the day of the month. */
  dayOfMonth?: string;

  // +optional
  /** month of the year. */
  month?: string;

  // +optional
  /** dayOfWeek is the day of the week. */
  dayOfWeek?: string;`;

/** The schedule's conversion, which the scaffold leaves to the user (the types differ). */
const CRON_SCHEDULE_CONVERSION = `
/** A v2 schedule as v1's Cron text. */
function cronText(schedule: CronSchedule): string {
  const { minute = '*', hour = '*', dayOfMonth = '*', month = '*', dayOfWeek = '*' } = schedule;
  return [minute, hour, dayOfMonth, month, dayOfWeek].join(' ');
}

/** v1's Cron text as a v2 schedule. */
function cronSchedule(text: string): CronSchedule {
  const [minute = '*', hour = '*', dayOfMonth = '*', month = '*', dayOfWeek = '*'] = text.split(' ');
  return { minute, hour, dayOfMonth, month, dayOfWeek };
}
`;

/**
 * project-v4-multigroup: a multi-group project whose operator watches its own namespace only
 * (`init --multigroup --namespaced`, Roles instead of ClusterRoles): Captain in crew with defaulting
 * and validation webhooks, Frigate in ship, a controller for Deployments, and CronJob in a group
 * named like Kubernetes' batch, as Kubebuilder's CronJob tutorial makes it: its markers spelled
 * `default:=`, a reconciler that lists its Jobs through a field index, and webhooks.
 */
export async function projectV4Multigroup({ tsoperator, dir }: SampleContext): Promise<void> {
  await tsoperator(
    'init',
    '--domain',
    'testproject.org',
    '--project-name',
    'project-v4-multigroup',
    '--owner',
    'The tsoperator authors',
    '--multigroup',
    '--namespaced',
  );
  await tsoperator(
    'create',
    'api',
    '--group',
    'crew',
    '--version',
    'v1',
    '--kind',
    'Captain',
    '--controller',
  );
  await tsoperator(
    'create',
    'api',
    '--group',
    'ship',
    '--version',
    'v1beta1',
    '--kind',
    'Frigate',
    '--controller',
  );
  await tsoperator(
    'create',
    'api',
    '--group',
    'apps',
    '--version',
    'v1',
    '--kind',
    'Deployment',
    '--no-resource',
    '--controller',
  );
  await tsoperator(
    'create',
    'webhook',
    '--group',
    'crew',
    '--version',
    'v1',
    '--kind',
    'Captain',
    '--defaulting',
    '--programmatic-validation',
  );

  await tsoperator('create', 'api', '--group', 'batch', '--version', 'v1', '--kind', 'CronJob', '--controller');
  await userEdit(dir, 'src/api/batch/v1/cronjob.types.ts', [
    [
      "import { defineKind, type Condition, type int64, type ObjectMeta } from '../../../runtime/index.ts';",
      'import {\n  defineKind,\n  type Condition,\n  type int32,\n  type int64,\n  type ObjectMeta,\n  type Time,\n' +
        "} from '../../../runtime/index.ts';",
    ],
    [CRONJOB_EXAMPLE_FIELD, CRONJOB_FIELDS],
    ['/** CronJobStatus is the observed state of a CronJob. */', CONCURRENCY_POLICY.trimStart()],
    ['  observedGeneration?: int64;\n}', CRONJOB_STATUS_FIELDS],
  ]);
  await userEdit(dir, 'src/controllers/batch/cronjob.controller.ts', [
    ['  finalize,\n', '  finalize,\n  getControllerOf,\n'],
    ['  isConflict,\n', '  isConflict,\n  JobKind,\n'],
    [
      "import { CronJobKind, type CronJob } from '../../api/batch/v1/cronjob.types.ts';\n",
      "import { CronJobKind, type CronJob } from '../../api/batch/v1/cronjob.types.ts';\n\n" +
        '/** The field index of Jobs by the name of the CronJob that controls them. */\n' +
        "export const JOB_OWNER_KEY = '.metadata.controller';\n",
    ],
    [
      '// +kubebuilder:rbac:groups=events.k8s.io,',
      '// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch;create;update;patch;delete,namespace=system\n' +
        '// +kubebuilder:rbac:groups=events.k8s.io,',
    ],
    ["    mgr.controller('cronjob').for(CronJobKind).complete(this);", CRONJOB_SETUP],
    ['    const generation = cronJob.metadata?.generation;', CRONJOB_ACTIVE],
    [
      '    cronJob.status = { ...cronJob.status, observedGeneration: generation };',
      '    cronJob.status = { ...cronJob.status, active, observedGeneration: generation };',
    ],
  ]);
  await userEdit(dir, 'config/samples/batch_v1_cronjob.yaml', [['  foo: bar', "  schedule: '*/1 * * * *'"]]);
  await tsoperator('manifests');
  await tsoperator(
    'create',
    'webhook',
    '--group',
    'batch',
    '--version',
    'v1',
    '--kind',
    'CronJob',
    '--defaulting',
    '--programmatic-validation',
  );

  await tsoperator('create', 'api', '--group', 'batch', '--version', 'v2', '--kind', 'CronJob', '--no-controller');
  await userEdit(dir, 'src/api/batch/v2/cronjob.types.ts', [
    [CRONJOB_EXAMPLE_FIELD + '\n}', CRONJOB_V2_FIELDS + '\n}'],
  ]);
  await userEdit(dir, 'config/samples/batch_v2_cronjob.yaml', [
    ['  foo: bar', "  schedule:\n    minute: '*/1'\n    hour: '*'\n    dayOfMonth: '*'\n    month: '*'\n    dayOfWeek: '*'"],
  ]);
  await tsoperator('manifests');
  await tsoperator(
    'create',
    'webhook',
    '--group',
    'batch',
    '--version',
    'v1',
    '--kind',
    'CronJob',
    '--conversion',
    '--spoke',
    'v2',
  );
  await userEdit(dir, 'src/webhooks/batch/v2/cronjob.conversion.ts', [
    [
      "import type { CronJob as CronJobV2 } from '../../../api/batch/v2/cronjob.types.ts';",
      "import type { CronJob as CronJobV2, CronSchedule } from '../../../api/batch/v2/cronjob.types.ts';",
    ],
    [
      " * - spec.schedule is of another type in v1 than in v2: converted from v2, it is set to ''; converted\n *   from v1, it is set to { }.\n",
      ' * - spec.schedule is Cron text in v1 and its five parts in v2: each converts to the other.\n',
    ],
    [
      "  return { schedule: '', concurrencyPolicy: spec.concurrencyPolicy, suspend: spec.suspend };",
      '  return {\n    schedule: cronText(spec.schedule),\n    concurrencyPolicy: spec.concurrencyPolicy,\n    suspend: spec.suspend,\n  };',
    ],
    [
      '  return { schedule: {}, concurrencyPolicy: spec.concurrencyPolicy, suspend: spec.suspend };',
      '  return {\n    schedule: cronSchedule(spec.schedule),\n    concurrencyPolicy: spec.concurrencyPolicy,\n    suspend: spec.suspend,\n  };',
    ],
  ]);
  await appendTo(dir, 'src/webhooks/batch/v2/cronjob.conversion.ts', CRON_SCHEDULE_CONVERSION);
  // With the schedule converted, nothing of v2 is lost: the test checks the whole round trip.
  await userEdit(dir, 'test/webhooks/batch/v1/cronjob.webhook.test.ts', [
    [
      '    // The conversion does not keep all of v2 yet (see its notes): once it does, check the\n' +
        '    // whole round trip here with assert.partialDeepStrictEqual(spoke, written).\n',
      '    // A lossless conversion: all the sample set comes back as written, through the hub.\n' +
        '    assert.partialDeepStrictEqual(spoke, written);\n',
    ],
  ]);
}
