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
} from '../runtime/index.ts';
import { CaptainKind, type Captain } from '../api/v1/captain.types.ts';

/**
 * Holds a Captain that is being deleted until `cleanup` has run, once
 * `CaptainReconciler.cleansUpOutsideTheCluster` is on.
 */
export const CAPTAIN_FINALIZER = 'crew.testproject.org/finalizer';

/**
 * Reconciles Captain objects: makes the cluster match each one's spec, and reports what it
 * observed in its status (conditions Available, Progressing and Degraded) and in events. Called
 * again whenever a Captain changes; a failure is retried with backoff.
 */
// +kubebuilder:rbac:groups=crew.testproject.org,resources=captains,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=crew.testproject.org,resources=captains/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=crew.testproject.org,resources=captains/finalizers,verbs=update
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch
export class CaptainReconciler implements Reconciler {
  readonly client: Client;
  /** Events about the objects it reconciles, for `kubectl describe` and `kubectl events`. */
  readonly events: EventRecorder;
  /**
   * Turn this on once `apply` makes something outside the cluster (a cloud resource, a DNS record)
   * that must go with the Captain: each Captain then carries CAPTAIN_FINALIZER, and its
   * deletion waits for `cleanup`. Off, deleting a Captain needs no running operator: a finalizer on
   * every object would leave them stuck Terminating if the operator were uninstalled first. What a
   * Captain owns in the cluster goes with it either way, through owner references.
   */
  readonly cleansUpOutsideTheCluster: boolean = false;

  constructor(client: Client, events: EventRecorder) {
    this.client = client;
    this.events = events;
  }

  /** Registers the controller with the manager: it reconciles every Captain that changes. */
  setup(mgr: Manager): void {
    mgr.controller('captain').for(CaptainKind).complete(this);
  }

  async reconcile(req: Request, signal: AbortSignal): Promise<Result> {
    const captain = await this.client.get(CaptainKind, req, { signal });
    // Deleted, and its finalizer (if any) already removed: nothing is left to do.
    if (!captain) return done();
    try {
      // One that still carries the finalizer (from when cleanup was on) is finalized all the same.
      if (!this.cleansUpOutsideTheCluster && !containsFinalizer(captain, CAPTAIN_FINALIZER)) {
        return await this.apply(captain, signal);
      }
      return await finalize(this.client, captain, CAPTAIN_FINALIZER, {
        apply: () => this.apply(captain, signal),
        cleanup: () => this.cleanup(captain, signal),
      });
    } catch (err) {
      // A conflict only means what it read was stale: the retry reads again, nothing is degraded.
      if (isConflict(err)) {
        loggerFrom(signal).debug('conflict with a newer write, reconciling again', { error: err });
        return requeue();
      }
      await this.reportFailure(captain, err, signal);
      throw err;
    }
  }

  /** Makes the cluster match the Captain's spec, then says so in its status. */
  async apply(captain: Captain, signal: AbortSignal): Promise<Result> {
    // Compare captain.spec with the cluster here and write the difference (createOrUpdate, with
    // setControllerReference), then set Available from what is ready: True only for work done.
    const before = cloneJson(captain.status);
    const generation = captain.metadata?.generation;
    const message = 'CaptainReconciler.apply makes nothing yet';
    setCondition(captain, { type: 'Available', status: 'Unknown', reason: 'NotImplemented', message });
    setCondition(captain, { type: 'Progressing', status: 'False', reason: 'Reconciled' });
    setCondition(captain, { type: 'Degraded', status: 'False', reason: 'Reconciled' });
    captain.status = { ...captain.status, observedGeneration: generation };
    await this.writeStatus(captain, before, signal);
    if (before?.observedGeneration !== generation) {
      const note = `reconciled generation ${String(generation)} of the spec`;
      loggerFrom(signal).info(note);
      this.events.event(captain, 'Normal', 'Reconciled', 'Reconcile', note);
    }
    return done();
  }

  /**
   * Runs once the Captain is being deleted, with cleansUpOutsideTheCluster on: releases what it
   * holds outside the cluster, then the finalizer is removed. Runs again after a failure, so it
   * must tolerate work already done.
   */
  async cleanup(captain: Captain, signal: AbortSignal): Promise<Result> {
    // Delete what the Captain made outside the cluster here.
    const note = 'cleanup done, removing the finalizer';
    loggerFrom(signal).info(note);
    this.events.event(captain, 'Normal', 'CleanedUp', 'Finalize', note);
    return done();
  }

  /** Degraded, with the error, on the object and as a Warning event, for `kubectl describe`. */
  async reportFailure(captain: Captain, err: unknown, signal: AbortSignal): Promise<void> {
    const message = err instanceof Error ? err.message : String(err);
    const deleting = isBeingDeleted(captain);
    const reason = deleting ? 'CleanupFailed' : 'ReconcileFailed';
    this.events.event(captain, 'Warning', reason, deleting ? 'Finalize' : 'Reconcile', message);
    const before = cloneJson(captain.status);
    setCondition(captain, { type: 'Degraded', status: 'True', reason, message });
    // A failing status write must not hide the error being reported: the event carries it.
    await this.writeStatus(captain, before, signal).catch((writeErr: unknown) => {
      loggerFrom(signal).warn('could not write Degraded to the status', { error: writeErr });
    });
  }

  /** Writes the status when it changed since `before`: an unchanged one would only wake watchers. */
  async writeStatus(captain: Captain, before: Captain['status'], signal: AbortSignal): Promise<void> {
    if (isDeepStrictEqual(before, captain.status)) return;
    await this.client.status().patch(captain, mergePatch({ status: captain.status }), { signal });
  }
}
