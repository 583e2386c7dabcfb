/*
 * What user code may and may not write about timestamps, checked by the compiler: every line under
 * a `@ts-expect-error TS<code>` comment must fail with that code, every other line must compile.
 * `npm run typecheck` checks the comments hold; timestamp-typing.test.ts compiles this file without
 * them and checks each error's code and line. The functions are never called.
 */
/* eslint-disable @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return --
   the lines under @ts-expect-error do not type-check: that is what they are here for */
import type {
  V1Condition,
  V1Deployment,
  V1DeploymentSpec,
  V1Job,
  V1JobTemplateSpec,
} from '@kubernetes/client-node';
import {
  createOrUpdate,
  defineKind,
  DeploymentKind,
  findStatusCondition,
  JobKind,
  LeaseKind,
  setCondition,
  type Cache,
  type Client,
  type Condition,
  type Json,
  type JsonInput,
  type Manager,
  type ObjectMeta,
  type Time,
} from '../../../src/runtime/index.ts';

/** A CRD as `create api` types it, with a client-node type embedded honestly. */
interface CronJob {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: { schedule: string; jobTemplate: Json<V1JobTemplateSpec> };
  status?: { conditions?: Condition[]; lastScheduleTime?: Time };
}

const CronJobKind = defineKind<CronJob>({
  apiVersion: 'batch.tutorial.example.org/v1',
  kind: 'CronJob',
  plural: 'cronjobs',
  namespaced: true,
});

const key = { namespace: 'default', name: 'nightly' };

/** Timestamps read through the client are strings: Date's methods do not compile, parsing does. */
export async function readFromClient(client: Client): Promise<number> {
  const job = await client.get(JobKind, key);
  // @ts-expect-error TS2339: a read timestamp is a string, which has no getTime
  job?.status?.startTime?.getTime();
  // @ts-expect-error TS2339: so is the metadata's
  job?.metadata?.creationTimestamp?.getTime();
  // @ts-expect-error TS2322: a read object is not client-node's model, whose timestamps are Dates
  const model: V1Job | undefined = job;
  const started = job?.status?.startTime;
  const finished = job?.status?.completionTime;
  const jobs = await client.listAll(JobKind, { namespace: 'default' });
  // @ts-expect-error TS2339: list items too
  jobs[0]?.status?.conditions?.[0]?.lastTransitionTime?.getTime();
  const lease = await client.direct().get(LeaseKind, key);
  // @ts-expect-error TS2339: a MicroTime as well
  lease?.spec?.renewTime?.getTime();
  const renewed: number = lease?.spec?.renewTime === undefined ? 0 : Date.parse(lease.spec.renewTime);
  void model;
  return started && finished ? new Date(finished).getTime() - Date.parse(started) + renewed : 0;
}

/** From the cache, informers and handlers alike. */
export async function readFromCache(cache: Cache, mgr: Manager): Promise<void> {
  const cached = await cache.get(JobKind, key);
  // @ts-expect-error TS2339: a cached object is the API server's JSON
  cached?.metadata?.deletionTimestamp?.getTime();
  cache.informerFor(JobKind).addEventHandler({
    // @ts-expect-error TS2339: so is an informer's
    onAdd: (job) => job.status?.startTime?.getTime(),
  });
  mgr
    .controller()
    .for(CronJobKind)
    .owns(JobKind, {
      // @ts-expect-error TS2339: and a predicate's
      predicates: [(event) => event.object.metadata?.creationTimestamp?.getTime() !== 0],
    })
    .withEventFilter((event) => Date.parse(event.object.metadata?.creationTimestamp ?? '') > 0);
}

/** Writes take a Date or a string wherever a timestamp goes. */
export async function write(client: Client, cronJob: Json<CronJob>, spec: V1DeploymentSpec): Promise<void> {
  await client.create({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'manual', namespace: 'default' },
    status: { startTime: new Date() },
  } satisfies V1Job);
  await client.status().update({ ...cronJob, status: { lastScheduleTime: new Date().toISOString() } });
  const { object } = await createOrUpdate(client, DeploymentKind, key, (deployment) => {
    // A client-node spec built in code (its pod template's creationTimestamp is a Date) fits.
    deployment.spec = spec;
    // What the mutate function reads may be either: a Date written above, or a string read.
    // @ts-expect-error TS2339: so Date's methods are refused there too
    deployment.spec.template.metadata?.creationTimestamp?.getTime();
    const created = deployment.metadata?.creationTimestamp;
    if (created !== undefined)
      deployment.metadata = { ...deployment.metadata, creationTimestamp: new Date(created) };
  });
  // @ts-expect-error TS2339: what createOrUpdate returns is as read
  object.metadata?.creationTimestamp?.getTime();
  const asInput: JsonInput<V1Deployment> = object;
  void asInput;
}

/** Conditions read back as strings; setCondition takes a Date or a string. */
export function conditions(cronJob: Json<CronJob>, model: V1Condition): string | undefined {
  setCondition(cronJob, {
    type: 'Ready',
    status: 'True',
    reason: 'Scheduled',
    lastTransitionTime: new Date(),
  });
  setCondition(cronJob, {
    type: 'Ready',
    status: 'True',
    reason: 'Scheduled',
    lastTransitionTime: '2026-01-01T00:00:00Z',
  });
  const ready = findStatusCondition(cronJob.status?.conditions, 'Ready');
  // @ts-expect-error TS2339: a condition's time is a string
  ready?.lastTransitionTime.getTime();
  // @ts-expect-error TS2322: client-node's V1Condition, with a Date, is not what the status holds
  const held: Condition = model;
  void held;
  // @ts-expect-error TS2339: nor is the embedded template's metadata a Date
  cronJob.spec.jobTemplate.metadata?.creationTimestamp?.getTime();
  return ready?.lastTransitionTime;
}
