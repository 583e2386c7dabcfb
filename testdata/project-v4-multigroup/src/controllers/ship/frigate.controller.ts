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
  isBeingDeleted,
  isConflict,
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
import { FrigateKind, type Frigate } from '../../api/ship/v1beta1/frigate.types.ts';

/**
 * Holds a Frigate that is being deleted until `cleanup` has run, once
 * `FrigateReconciler.cleansUpOutsideTheCluster` is on.
 */
export const FRIGATE_FINALIZER = 'ship.testproject.org/finalizer';

/**
 * Reconciles Frigate objects: makes the cluster match each one's spec, and reports what it
 * observed in its status (conditions Available, Progressing and Degraded) and in events. Called
 * again whenever a Frigate changes; a failure is retried with backoff.
 */
// +kubebuilder:rbac:groups=ship.testproject.org,resources=frigates,verbs=get;list;watch;create;update;patch;delete,namespace=system
// +kubebuilder:rbac:groups=ship.testproject.org,resources=frigates/status,verbs=get;update;patch,namespace=system
// +kubebuilder:rbac:groups=ship.testproject.org,resources=frigates/finalizers,verbs=update,namespace=system
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch,namespace=system
export class FrigateReconciler implements Reconciler {
  readonly client: Client;
  /** Events about the objects it reconciles, for `kubectl describe` and `kubectl events`. */
  readonly events: EventRecorder;
  /**
   * Turn this on once `apply` makes something outside the cluster (a cloud resource, a DNS record)
   * that must go with the Frigate: each Frigate then carries FRIGATE_FINALIZER, and its
   * deletion waits for `cleanup`. Off, deleting a Frigate needs no running operator: a finalizer on
   * every object would leave them stuck Terminating if the operator were uninstalled first. What a
   * Frigate owns in the cluster goes with it either way, through owner references.
   */
  readonly cleansUpOutsideTheCluster: boolean = false;

  constructor(client: Client, events: EventRecorder) {
    this.client = client;
    this.events = events;
  }

  /** Registers the controller with the manager: it reconciles every Frigate that changes. */
  setup(mgr: Manager): void {
    mgr.controller('frigate').for(FrigateKind).complete(this);
  }

  async reconcile(req: Request, signal: AbortSignal): Promise<Result> {
    const frigate = await this.client.get(FrigateKind, req, { signal });
    // Deleted, and its finalizer (if any) already removed: nothing is left to do.
    if (!frigate) return done();
    try {
      // One that still carries the finalizer (from when cleanup was on) is finalized all the same.
      if (!this.cleansUpOutsideTheCluster && !containsFinalizer(frigate, FRIGATE_FINALIZER)) {
        return await this.apply(frigate, signal);
      }
      return await finalize(this.client, frigate, FRIGATE_FINALIZER, {
        apply: () => this.apply(frigate, signal),
        cleanup: () => this.cleanup(frigate, signal),
      });
    } catch (err) {
      // A conflict only means what it read was stale: the retry reads again, nothing is degraded.
      if (isConflict(err)) {
        loggerFrom(signal).debug('conflict with a newer write, reconciling again', { error: err });
        return requeue();
      }
      await this.reportFailure(frigate, err, signal);
      throw err;
    }
  }

  /** Makes the cluster match the Frigate's spec, then says so in its status. */
  async apply(frigate: Frigate, signal: AbortSignal): Promise<Result> {
    // Compare frigate.spec with the cluster here and write the difference (createOrUpdate, with
    // setControllerReference), then set Available from what is ready: True only for work done.
    const before = cloneJson(frigate.status);
    const generation = frigate.metadata?.generation;
    const message = 'FrigateReconciler.apply makes nothing yet';
    setCondition(frigate, { type: 'Available', status: 'Unknown', reason: 'NotImplemented', message });
    setCondition(frigate, { type: 'Progressing', status: 'False', reason: 'Reconciled' });
    setCondition(frigate, { type: 'Degraded', status: 'False', reason: 'Reconciled' });
    frigate.status = { ...frigate.status, observedGeneration: generation };
    await this.writeStatus(frigate, before, signal);
    if (before?.observedGeneration !== generation) {
      const note = `reconciled generation ${String(generation)} of the spec`;
      loggerFrom(signal).info(note);
      this.events.event(frigate, 'Normal', 'Reconciled', 'Reconcile', note);
    }
    return done();
  }

  /**
   * Runs once the Frigate is being deleted, with cleansUpOutsideTheCluster on: releases what it
   * holds outside the cluster, then the finalizer is removed. Runs again after a failure, so it
   * must tolerate work already done.
   */
  async cleanup(frigate: Frigate, signal: AbortSignal): Promise<Result> {
    // Delete what the Frigate made outside the cluster here.
    const note = 'cleanup done, removing the finalizer';
    loggerFrom(signal).info(note);
    this.events.event(frigate, 'Normal', 'CleanedUp', 'Finalize', note);
    return done();
  }

  /** Degraded, with the error, on the object and as a Warning event, for `kubectl describe`. */
  async reportFailure(frigate: Frigate, err: unknown, signal: AbortSignal): Promise<void> {
    const message = err instanceof Error ? err.message : String(err);
    const deleting = isBeingDeleted(frigate);
    const reason = deleting ? 'CleanupFailed' : 'ReconcileFailed';
    this.events.event(frigate, 'Warning', reason, deleting ? 'Finalize' : 'Reconcile', message);
    const before = cloneJson(frigate.status);
    setCondition(frigate, { type: 'Degraded', status: 'True', reason, message });
    // A failing status write must not hide the error being reported: the event carries it.
    await this.writeStatus(frigate, before, signal).catch((writeErr: unknown) => {
      loggerFrom(signal).warn('could not write Degraded to the status', { error: writeErr });
    });
  }

  /** Writes the status when it changed since `before`: an unchanged one would only wake watchers. */
  async writeStatus(frigate: Frigate, before: Frigate['status'], signal: AbortSignal): Promise<void> {
    if (isDeepStrictEqual(before, frigate.status)) return;
    await this.client.status().patch(frigate, mergePatch({ status: frigate.status }), { signal });
  }
}
