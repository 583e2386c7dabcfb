/*
 * Copyright The tsoperator authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import { isDeepStrictEqual } from 'node:util';
import {
  cloneJson,
  containsFinalizer,
  done,
  finalize,
  getControllerOf,
  isBeingDeleted,
  isConflict,
  JobKind,
  loggerFrom,
  mergePatch,
  requeue,
  setCondition,
  type Client,
  type EventRecorder,
  type Manager,
  type Reconciler,
  type Request,
  type Result,
} from '../../runtime/index.ts';
import { CronJobKind, type CronJob } from '../../api/batch/v1/cronjob.types.ts';

/** The field index of Jobs by the name of the CronJob that controls them. */
export const JOB_OWNER_KEY = '.metadata.controller';

/**
 * Holds a CronJob that is being deleted until `cleanup` has run, once
 * `CronJobReconciler.cleansUpOutsideTheCluster` is on.
 */
export const CRON_JOB_FINALIZER = 'batch.testproject.org/finalizer';

/**
 * Reconciles CronJob objects: makes the cluster match each one's spec, and reports what it
 * observed in its status (conditions Available, Progressing and Degraded) and in events. Called
 * again whenever a CronJob changes; a failure is retried with backoff.
 */
// +kubebuilder:rbac:groups=batch.testproject.org,resources=cronjobs,verbs=get;list;watch;create;update;patch;delete,namespace=system
// +kubebuilder:rbac:groups=batch.testproject.org,resources=cronjobs/status,verbs=get;update;patch,namespace=system
// +kubebuilder:rbac:groups=batch.testproject.org,resources=cronjobs/finalizers,verbs=update,namespace=system
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch;create;update;patch;delete,namespace=system
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch,namespace=system
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

  constructor(client: Client, events: EventRecorder) {
    this.client = client;
    this.events = events;
  }

  /** Registers the controller with the manager: it reconciles every CronJob that changes. */
  setup(mgr: Manager): void {
    // Jobs by the CronJob that controls them: reconcile lists a CronJob's Jobs through this index.
    mgr.cache.indexField(JobKind, JOB_OWNER_KEY, (job) => {
      const owner = getControllerOf(job);
      return owner?.kind === 'CronJob' ? [owner.name] : [];
    });
    mgr.controller('cronjob').for(CronJobKind).owns(JobKind).complete(this);
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

  /** Makes the cluster match the CronJob's spec, then says so in its status. */
  async apply(cronJob: CronJob, signal: AbortSignal): Promise<Result> {
    // Compare cronJob.spec with the cluster here and write the difference (createOrUpdate, with
    // setControllerReference), then set Available from what is ready: True only for work done.
    const before = cloneJson(cronJob.status);
    const generation = cronJob.metadata?.generation;
    const jobs = await this.client.list(JobKind, {
      namespace: cronJob.metadata?.namespace ?? '',
      fieldSelector: `${JOB_OWNER_KEY}=${cronJob.metadata?.name ?? ''}`,
      signal,
    });
    const active = jobs.items.filter((job) => job.status?.completionTime === undefined).length;
    const message = 'CronJobReconciler.apply makes nothing yet';
    setCondition(cronJob, { type: 'Available', status: 'Unknown', reason: 'NotImplemented', message });
    setCondition(cronJob, { type: 'Progressing', status: 'False', reason: 'Reconciled' });
    setCondition(cronJob, { type: 'Degraded', status: 'False', reason: 'Reconciled' });
    cronJob.status = { ...cronJob.status, active, observedGeneration: generation };
    await this.writeStatus(cronJob, before, signal);
    if (before?.observedGeneration !== generation) {
      const note = `reconciled generation ${String(generation)} of the spec`;
      loggerFrom(signal).info(note);
      this.events.event(cronJob, 'Normal', 'Reconciled', 'Reconcile', note);
    }
    return done();
  }

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
