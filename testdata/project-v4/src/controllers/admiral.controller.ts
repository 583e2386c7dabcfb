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
import { AdmiralKind, type Admiral } from '../api/v1/admiral.types.ts';

/**
 * Holds a Admiral that is being deleted until `cleanup` has run, once
 * `AdmiralReconciler.cleansUpOutsideTheCluster` is on.
 */
export const ADMIRAL_FINALIZER = 'crew.testproject.org/finalizer';

/**
 * Reconciles Admiral objects: makes the cluster match each one's spec, and reports what it
 * observed in its status (conditions Available, Progressing and Degraded) and in events. Called
 * again whenever a Admiral changes; a failure is retried with backoff.
 */
// +kubebuilder:rbac:groups=crew.testproject.org,resources=admirals,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=crew.testproject.org,resources=admirals/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=crew.testproject.org,resources=admirals/finalizers,verbs=update
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch
export class AdmiralReconciler implements Reconciler {
  readonly client: Client;
  /** Events about the objects it reconciles, for `kubectl describe` and `kubectl events`. */
  readonly events: EventRecorder;
  /**
   * Turn this on once `apply` makes something outside the cluster (a cloud resource, a DNS record)
   * that must go with the Admiral: each Admiral then carries ADMIRAL_FINALIZER, and its
   * deletion waits for `cleanup`. Off, deleting a Admiral needs no running operator: a finalizer on
   * every object would leave them stuck Terminating if the operator were uninstalled first. What a
   * Admiral owns in the cluster goes with it either way, through owner references.
   */
  readonly cleansUpOutsideTheCluster: boolean = false;

  constructor(client: Client, events: EventRecorder) {
    this.client = client;
    this.events = events;
  }

  /** Registers the controller with the manager: it reconciles every Admiral that changes. */
  setup(mgr: Manager): void {
    mgr.controller('admiral').for(AdmiralKind).complete(this);
  }

  async reconcile(req: Request, signal: AbortSignal): Promise<Result> {
    const admiral = await this.client.get(AdmiralKind, req, { signal });
    // Deleted, and its finalizer (if any) already removed: nothing is left to do.
    if (!admiral) return done();
    try {
      // One that still carries the finalizer (from when cleanup was on) is finalized all the same.
      if (!this.cleansUpOutsideTheCluster && !containsFinalizer(admiral, ADMIRAL_FINALIZER)) {
        return await this.apply(admiral, signal);
      }
      return await finalize(this.client, admiral, ADMIRAL_FINALIZER, {
        apply: () => this.apply(admiral, signal),
        cleanup: () => this.cleanup(admiral, signal),
      });
    } catch (err) {
      // A conflict only means what it read was stale: the retry reads again, nothing is degraded.
      if (isConflict(err)) {
        loggerFrom(signal).debug('conflict with a newer write, reconciling again', { error: err });
        return requeue();
      }
      await this.reportFailure(admiral, err, signal);
      throw err;
    }
  }

  /** Makes the cluster match the Admiral's spec, then says so in its status. */
  async apply(admiral: Admiral, signal: AbortSignal): Promise<Result> {
    // Compare admiral.spec with the cluster here and write the difference (createOrUpdate, with
    // setControllerReference), then set Available from what is ready: True only for work done.
    const before = cloneJson(admiral.status);
    const generation = admiral.metadata?.generation;
    const message = 'AdmiralReconciler.apply makes nothing yet';
    setCondition(admiral, { type: 'Available', status: 'Unknown', reason: 'NotImplemented', message });
    setCondition(admiral, { type: 'Progressing', status: 'False', reason: 'Reconciled' });
    setCondition(admiral, { type: 'Degraded', status: 'False', reason: 'Reconciled' });
    admiral.status = { ...admiral.status, observedGeneration: generation };
    await this.writeStatus(admiral, before, signal);
    if (before?.observedGeneration !== generation) {
      const note = `reconciled generation ${String(generation)} of the spec`;
      loggerFrom(signal).info(note);
      this.events.event(admiral, 'Normal', 'Reconciled', 'Reconcile', note);
    }
    return done();
  }

  /**
   * Runs once the Admiral is being deleted, with cleansUpOutsideTheCluster on: releases what it
   * holds outside the cluster, then the finalizer is removed. Runs again after a failure, so it
   * must tolerate work already done.
   */
  async cleanup(admiral: Admiral, signal: AbortSignal): Promise<Result> {
    // Delete what the Admiral made outside the cluster here.
    const note = 'cleanup done, removing the finalizer';
    loggerFrom(signal).info(note);
    this.events.event(admiral, 'Normal', 'CleanedUp', 'Finalize', note);
    return done();
  }

  /** Degraded, with the error, on the object and as a Warning event, for `kubectl describe`. */
  async reportFailure(admiral: Admiral, err: unknown, signal: AbortSignal): Promise<void> {
    const message = err instanceof Error ? err.message : String(err);
    const deleting = isBeingDeleted(admiral);
    const reason = deleting ? 'CleanupFailed' : 'ReconcileFailed';
    this.events.event(admiral, 'Warning', reason, deleting ? 'Finalize' : 'Reconcile', message);
    const before = cloneJson(admiral.status);
    setCondition(admiral, { type: 'Degraded', status: 'True', reason, message });
    // A failing status write must not hide the error being reported: the event carries it.
    await this.writeStatus(admiral, before, signal).catch((writeErr: unknown) => {
      loggerFrom(signal).warn('could not write Degraded to the status', { error: writeErr });
    });
  }

  /** Writes the status when it changed since `before`: an unchanged one would only wake watchers. */
  async writeStatus(admiral: Admiral, before: Admiral['status'], signal: AbortSignal): Promise<void> {
    if (isDeepStrictEqual(before, admiral.status)) return;
    await this.client.status().patch(admiral, mergePatch({ status: admiral.status }), { signal });
  }
}
