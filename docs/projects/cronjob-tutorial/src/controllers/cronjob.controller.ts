/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import { isDeepStrictEqual } from 'node:util';
import type { V1Job, V1ObjectReference } from '@kubernetes/client-node';
import {
  cloneJson,
  containsFinalizer,
  done,
  finalize,
  formatTime,
  getControllerOf,
  isAlreadyExists,
  isBeingDeleted,
  isConflict,
  isNotFound,
  JobKind,
  loggerFrom,
  mergePatch,
  requeue,
  requeueAfter,
  setControllerReference,
  setCondition,
  systemClock,
  type Clock,
  type Client,
  type EventRecorder,
  type Json,
  type Manager,
  type Reconciler,
  type Request,
  type Result,
} from '../runtime/index.ts';
import { CronJobKind, type CronJob } from '../api/v1/cronjob.types.ts';
import { dueRuns, MAX_MISSED_RUNS } from './due-runs.ts';

// #region index
/** The field index of Jobs by the name of the CronJob that controls them. */
export const JOB_OWNER_KEY = '.metadata.controller';
// #endregion index

/**
 * Holds a CronJob that is being deleted until `cleanup` has run, once
 * `CronJobReconciler.cleansUpOutsideTheCluster` is on.
 */
export const CRON_JOB_FINALIZER = 'batch.tutorial.tsoperator.io/finalizer';

/**
 * Reconciles CronJob objects: makes the cluster match each one's spec, and reports what it
 * observed in its status (conditions Available, Progressing and Degraded) and in events. Called
 * again whenever a CronJob changes; a failure is retried with backoff.
 */
// +kubebuilder:rbac:groups=batch.tutorial.tsoperator.io,resources=cronjobs,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=batch.tutorial.tsoperator.io,resources=cronjobs/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=batch.tutorial.tsoperator.io,resources=cronjobs/finalizers,verbs=update
// #region rbac
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=batch,resources=jobs/status,verbs=get
// #endregion rbac
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch
export class CronJobReconciler implements Reconciler {
  readonly client: Client;
  /** Events about the objects it reconciles, for `kubectl describe` and `kubectl events`. */
  readonly events: EventRecorder;
  /**
   * Turn this on once `apply` makes something outside the cluster (a cloud resource, a DNS record)
   * that must go with the CronJob: each CronJob then carries CRON_JOB_FINALIZER, and its
   * deletion waits for `cleanup`. Off, deleting a CronJob needs no running operator: a finalizer on
   * every object would leave them stuck Terminating if the operator were uninstalled first. What a
   * CronJob owns in the cluster goes with it either way, through owner references.
   */
  readonly cleansUpOutsideTheCluster: boolean = false;

  // #region clock
  /** What time it is: systemClock under `npm start`, a FakeClock in tests. */
  readonly clock: Clock;

  constructor(client: Client, events: EventRecorder, clock: Clock = systemClock) {
    this.client = client;
    this.events = events;
    this.clock = clock;
  }
  // #endregion clock

  /** Registers the controller with the manager: it reconciles every CronJob that changes. */
  setup(mgr: Manager): void {
    // #region setup
    // Jobs by the CronJob that controls them: apply lists a CronJob's Jobs through this index.
    mgr.cache.indexField(JobKind, JOB_OWNER_KEY, (job) => {
      const owner = getControllerOf(job);
      return owner?.apiVersion === CronJobKind.apiVersion && owner.kind === 'CronJob' ? [owner.name] : [];
    });
    // A Job that changes (finishes, is deleted) reconciles the CronJob that controls it.
    mgr.controller('cronjob').for(CronJobKind).owns(JobKind).complete(this);
    // #endregion setup
  }

  async reconcile(req: Request, signal: AbortSignal): Promise<Result> {
    const cronJob = await this.client.get(CronJobKind, req, { signal });
    // Deleted, and its finalizer (if any) already removed: nothing is left to do.
    if (!cronJob) return done();
    try {
      // One that still carries the finalizer (from when cleanup was on) is finalized all the same.
      if (!this.cleansUpOutsideTheCluster && !containsFinalizer(cronJob, CRON_JOB_FINALIZER)) {
        return await this.apply(cronJob, signal);
      }
      return await finalize(this.client, cronJob, CRON_JOB_FINALIZER, {
        apply: () => this.apply(cronJob, signal),
        cleanup: () => this.cleanup(cronJob, signal),
      });
    } catch (err) {
      // A conflict only means what it read was stale: the retry reads again, nothing is degraded.
      if (isConflict(err)) {
        loggerFrom(signal).debug('conflict with a newer write, reconciling again', { error: err });
        return requeue();
      }
      await this.reportFailure(cronJob, err, signal);
      throw err;
    }
  }

  // #region apply
  /**
   * Runs the CronJob's Jobs on schedule: reports the running ones, prunes the finished ones past
   * the history limits, starts the run that is due, and asks to be called again for the next one.
   */
  async apply(cronJob: CronJob, signal: AbortSignal): Promise<Result> {
    const log = loggerFrom(signal);
    const before = cloneJson(cronJob.status);
    const generation = cronJob.metadata?.generation;
    const now = new Date(this.clock.now());

    // 1. The CronJob's Jobs, read from the cache through the field index setup() registered. The
    // last run is the latest of theirs and the one the status recorded: a run whose Job the
    // history limit deleted has still run.
    const jobs = sortJobs(await this.ownedJobs(cronJob, signal));
    const recorded = cronJob.status?.lastScheduleTime;
    const lastRun = latest(jobs.lastScheduled, recorded === undefined ? undefined : new Date(recorded));
    cronJob.status = {
      ...cronJob.status,
      active: jobs.active.map(jobReference),
      lastScheduleTime: lastRun ? formatTime(lastRun) : undefined,
      observedGeneration: generation,
    };

    // 2. Finished Jobs past the history limits go, oldest first.
    await this.prune(jobs.successful, cronJob.spec.successfulJobsHistoryLimit, signal);
    await this.prune(jobs.failed, cronJob.spec.failedJobsHistoryLimit, signal);

    // 3. A suspended CronJob starts nothing, and waits for its spec to change.
    if (cronJob.spec.suspend === true) {
      this.report(cronJob, 'False', 'Suspended', 'spec.suspend is true: no run starts');
      await this.writeStatus(cronJob, before, signal);
      return done();
    }

    // 4. The run that is due now, if any, and when the next one is.
    const since = lastRun ?? new Date(cronJob.metadata?.creationTimestamp ?? now);
    const { due, missed, next } = dueRuns(cronJob.spec, since, now);
    const nextRun = requeueAfter(next.getTime() - now.getTime());
    if (missed > MAX_MISSED_RUNS) {
      // As Kubernetes' CronJob controller: say so, and start the latest run all the same.
      const note = `more than ${MAX_MISSED_RUNS.toString()} runs missed: check the clock, or set startingDeadlineSeconds`;
      this.events.event(cronJob, 'Warning', 'TooManyMissedTimes', 'Run', note);
    }
    this.report(cronJob, 'True', 'Scheduled', `next run at ${formatTime(next)}`);
    if (due === undefined) {
      await this.writeStatus(cronJob, before, signal);
      return nextRun;
    }

    // 5. The concurrency policy decides about the runs still going.
    if (cronJob.spec.concurrencyPolicy === 'Forbid' && jobs.active.length > 0) {
      log.info('a run is due but the previous one still runs: skipped', { due: formatTime(due) });
      await this.writeStatus(cronJob, before, signal);
      return nextRun;
    }
    if (cronJob.spec.concurrencyPolicy === 'Replace') {
      for (const job of jobs.active) await this.deleteJob(job, signal);
      cronJob.status.active = [];
    }

    // 6. Start the due run. Its name holds its time, so a second reconcile cannot start it again.
    const job = jobFor(cronJob, due);
    try {
      const created = await this.client.create(job, { signal });
      this.events.event(cronJob, 'Normal', 'Started', 'Run', `started Job ${job.metadata.name}`);
      cronJob.status.active = [...(cronJob.status.active ?? []), jobReference(created)];
    } catch (err) {
      // Started by an earlier reconcile whose Job the cache has yet to show.
      if (!isAlreadyExists(err)) throw err;
    }
    cronJob.status.lastScheduleTime = formatTime(due);
    await this.writeStatus(cronJob, before, signal);

    // 7. Called again when the next run is due (or when one of its Jobs changes, as it owns them).
    return nextRun;
  }
  // #endregion apply

  // #region owned-jobs
  /**
   * The Jobs this CronJob controls, from the manager's cache: those of an earlier CronJob of the
   * same name, which the garbage collector has yet to delete, are not its own.
   */
  async ownedJobs(cronJob: CronJob, signal: AbortSignal): Promise<Json<V1Job>[]> {
    const jobs = await this.client.list(JobKind, {
      namespace: cronJob.metadata?.namespace ?? '',
      fieldSelector: `${JOB_OWNER_KEY}=${cronJob.metadata?.name ?? ''}`,
      signal,
    });
    return jobs.items.filter((job) => getControllerOf(job)?.uid === cronJob.metadata?.uid);
  }

  /** Deletes a Job with its Pods; one already gone (another reconcile, the garbage collector) is fine. */
  async deleteJob(job: Json<V1Job>, signal: AbortSignal): Promise<void> {
    try {
      await this.client.delete(job, { propagationPolicy: 'Background', signal });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  // #endregion owned-jobs

  // #region prune
  /** Deletes the oldest of `finished` (sorted oldest first) beyond `limit`, with their Pods. */
  async prune(
    finished: readonly Json<V1Job>[],
    limit: number | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    if (limit === undefined) return;
    for (const job of finished.slice(0, Math.max(0, finished.length - limit))) {
      await this.deleteJob(job, signal);
    }
  }
  // #endregion prune

  // #region report
  /** Available says whether runs start; the scaffold's other conditions say nothing went wrong. */
  report(cronJob: CronJob, available: 'True' | 'False', reason: string, message: string): void {
    setCondition(cronJob, { type: 'Available', status: available, reason, message });
    setCondition(cronJob, { type: 'Progressing', status: 'False', reason: 'Reconciled' });
    setCondition(cronJob, { type: 'Degraded', status: 'False', reason: 'Reconciled' });
  }
  // #endregion report

  /**
   * Runs once the CronJob is being deleted, with cleansUpOutsideTheCluster on: releases what it
   * holds outside the cluster, then the finalizer is removed. Runs again after a failure, so it
   * must tolerate work already done.
   */
  async cleanup(cronJob: CronJob, signal: AbortSignal): Promise<Result> {
    // Delete what the CronJob made outside the cluster here.
    const note = 'cleanup done, removing the finalizer';
    loggerFrom(signal).info(note);
    this.events.event(cronJob, 'Normal', 'CleanedUp', 'Finalize', note);
    return done();
  }

  /** Degraded, with the error, on the object and as a Warning event, for `kubectl describe`. */
  async reportFailure(cronJob: CronJob, err: unknown, signal: AbortSignal): Promise<void> {
    const message = err instanceof Error ? err.message : String(err);
    const deleting = isBeingDeleted(cronJob);
    const reason = deleting ? 'CleanupFailed' : 'ReconcileFailed';
    this.events.event(cronJob, 'Warning', reason, deleting ? 'Finalize' : 'Reconcile', message);
    const before = cloneJson(cronJob.status);
    setCondition(cronJob, { type: 'Degraded', status: 'True', reason, message });
    // A failing status write must not hide the error being reported: the event carries it.
    await this.writeStatus(cronJob, before, signal).catch((writeErr: unknown) => {
      loggerFrom(signal).warn('could not write Degraded to the status', { error: writeErr });
    });
  }

  /** Writes the status when it changed since `before`: an unchanged one would only wake watchers. */
  async writeStatus(cronJob: CronJob, before: CronJob['status'], signal: AbortSignal): Promise<void> {
    if (isDeepStrictEqual(before, cronJob.status)) return;
    await this.client.status().patch(cronJob, mergePatch({ status: cronJob.status }), { signal });
  }
}

// #region jobs
/** The annotation on each Job with the time it was scheduled for. */
export const SCHEDULED_TIME_ANNOTATION = 'batch.tutorial.tsoperator.io/scheduled-at';

/** A CronJob's Jobs by state: finished ones oldest first, and the latest scheduled time. */
export interface SortedJobs {
  readonly active: Json<V1Job>[];
  readonly successful: Json<V1Job>[];
  readonly failed: Json<V1Job>[];
  readonly lastScheduled: Date | undefined;
}

/** A Job is finished once its Complete or Failed condition is True. */
function finishedAs(job: Json<V1Job>): 'Complete' | 'Failed' | undefined {
  const finished = job.status?.conditions?.find(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
  return finished?.type === 'Complete' || finished?.type === 'Failed' ? finished.type : undefined;
}

/** When a Job was scheduled for, from its annotation. */
export function scheduledTime(job: Json<V1Job>): Date | undefined {
  const text = job.metadata?.annotations?.[SCHEDULED_TIME_ANNOTATION];
  return text === undefined ? undefined : new Date(text);
}

/** Sorts a CronJob's Jobs by state. */
export function sortJobs(jobs: readonly Json<V1Job>[]): SortedJobs {
  const byTime = (a: Json<V1Job>, b: Json<V1Job>): number =>
    (scheduledTime(a)?.getTime() ?? 0) - (scheduledTime(b)?.getTime() ?? 0);
  const ordered = [...jobs].sort(byTime);
  const last = ordered.at(-1);
  return {
    active: ordered.filter((job) => finishedAs(job) === undefined),
    successful: ordered.filter((job) => finishedAs(job) === 'Complete'),
    failed: ordered.filter((job) => finishedAs(job) === 'Failed'),
    lastScheduled: last === undefined ? undefined : scheduledTime(last),
  };
}

/** The later of two times, either of which may be missing. */
function latest(a: Date | undefined, b: Date | undefined): Date | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return a > b ? a : b;
}

/** A reference to a Job, for the CronJob's status. */
function jobReference(job: Json<V1Job>): V1ObjectReference {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    name: job.metadata?.name,
    namespace: job.metadata?.namespace,
    uid: job.metadata?.uid,
  };
}

/**
 * The Job of the run scheduled for `due`: the CronJob's template, named after the CronJob and the
 * run's time in seconds, annotated with that time, and controlled by the CronJob (so that it
 * wakes the controller and goes with the CronJob).
 */
export function jobFor(cronJob: CronJob, due: Date): Json<V1Job> & { metadata: { name: string } } {
  const template = cronJob.spec.jobTemplate;
  const job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: `${cronJob.metadata?.name ?? ''}-${Math.floor(due.getTime() / 1000).toString()}`,
      namespace: cronJob.metadata?.namespace,
      labels: { ...template.metadata?.labels },
      annotations: { ...template.metadata?.annotations, [SCHEDULED_TIME_ANNOTATION]: formatTime(due) },
    },
    spec: cloneJson(template.spec),
  };
  setControllerReference(cronJob, job);
  return job;
}
// #endregion jobs
