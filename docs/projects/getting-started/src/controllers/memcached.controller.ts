/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import { isDeepStrictEqual } from 'node:util';
import {
  DeploymentKind,
  ServiceKind,
  cloneJson,
  createOrUpdate,
  done,
  finalize,
  isBeingDeleted,
  isConflict,
  loggerFrom,
  mergePatch,
  requeue,
  requeueAfter,
  seconds,
  setCondition,
  setControllerReference,
  type Client,
  type ConditionInput,
  type EventRecorder,
  type Json,
  type Kind,
  type KubeObject,
  type Manager,
  type MutateFn,
  type Reconciler,
  type Request,
  type Result,
} from '../runtime/index.ts';
import { MemcachedKind, type Memcached } from '../api/v1alpha1/memcached.types.ts';
import { mutateDeployment, mutateService } from './memcached.resources.ts';

/**
 * Holds a Memcached that is being deleted until `cleanup` has run, so that nothing it made outside
 * the cluster outlives it.
 */
export const MEMCACHED_FINALIZER = 'cache.example.com/finalizer';

/**
 * Reconciles Memcached objects: runs each one's image as a Deployment behind a Service (both named as
 * the Memcached, and controlled by it), puts them back when they are edited or deleted, and reports
 * their readiness in its status (conditions Available, Progressing and Degraded) and in events.
 */
// +kubebuilder:rbac:groups=cache.example.com,resources=memcacheds,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=cache.example.com,resources=memcacheds/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=cache.example.com,resources=memcacheds/finalizers,verbs=update
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups="",resources=services,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch
export class MemcachedReconciler implements Reconciler {
  readonly client: Client;
  /** Events about the objects it reconciles, for `kubectl describe` and `kubectl events`. */
  readonly events: EventRecorder;

  constructor(client: Client, events: EventRecorder) {
    this.client = client;
    this.events = events;
  }

  /**
   * Registers the controller with the manager. Owning the Deployment and the Service means that a
   * change to either (its readiness, an edit, its deletion) reconciles the Memcached again.
   */
  setup(mgr: Manager): void {
    mgr.controller('memcached').for(MemcachedKind).owns(DeploymentKind).owns(ServiceKind).complete(this);
  }

  async reconcile(req: Request, signal: AbortSignal): Promise<Result> {
    const memcached = await this.client.get(MemcachedKind, req, { signal });
    // Deleted, and its finalizer already removed: nothing is left to do.
    if (!memcached) return done();
    try {
      return await finalize(this.client, memcached, MEMCACHED_FINALIZER, {
        apply: () => this.apply(memcached, signal),
        cleanup: () => this.cleanup(memcached, signal),
      });
    } catch (err) {
      // A conflict only means what it read was stale: the retry reads again, nothing is degraded.
      if (isConflict(err)) {
        loggerFrom(signal).debug('conflict with a newer write, reconciling again', { error: err });
        return requeue();
      }
      await this.reportFailure(memcached, err, signal);
      throw err;
    }
  }

  /** Brings the Deployment and the Service to what the Memcached says, then reports their readiness. */
  async apply(memcached: Memcached, signal: AbortSignal): Promise<Result> {
    const deployment = await this.ensure(
      memcached,
      DeploymentKind,
      (d) => {
        mutateDeployment(memcached, d);
      },
      signal,
    );
    await this.ensure(
      memcached,
      ServiceKind,
      (s) => {
        mutateService(memcached, s);
      },
      signal,
    );

    const before = cloneJson(memcached.status);
    const replicas = memcached.spec.replicas ?? 1;
    const readyReplicas = deployment.status?.readyReplicas ?? 0;
    for (const condition of rolloutConditions(readyReplicas, replicas)) setCondition(memcached, condition);
    setCondition(memcached, { type: 'Degraded', status: 'False', reason: 'Reconciled' });
    memcached.status = {
      ...memcached.status,
      readyReplicas,
      observedGeneration: memcached.metadata?.generation,
    };
    await this.writeStatus(memcached, before, signal);
    // Each change of the Deployment's status reconciles again (it is owned); the requeue catches a
    // rollout that stalls without one.
    return readyReplicas >= replicas ? done() : requeueAfter(seconds(30));
  }

  /**
   * Runs once the Memcached is being deleted, before the finalizer goes. The Deployment and the
   * Service need nothing here: the garbage collector deletes them through their owner references.
   */
  async cleanup(memcached: Memcached, signal: AbortSignal): Promise<Result> {
    // Release what the Memcached holds outside the cluster here; it must tolerate work already done.
    const note = 'cleanup done, removing the finalizer';
    loggerFrom(signal).info(note);
    this.events.event(memcached, 'Normal', 'CleanedUp', 'Finalize', note);
    return done();
  }

  /** Creates or updates one child named as the Memcached, controlled by it, and says what changed. */
  async ensure<T extends KubeObject>(
    memcached: Memcached,
    kind: Kind<T>,
    mutate: MutateFn<T>,
    signal: AbortSignal,
  ): Promise<Json<T>> {
    const key = { namespace: memcached.metadata?.namespace ?? '', name: memcached.metadata?.name ?? '' };
    const { object, operation } = await createOrUpdate(this.client, kind, key, (child) => {
      setControllerReference(memcached, child);
      return mutate(child);
    });
    if (operation === 'unchanged') return object;
    const [reason, action] = operation === 'created' ? ['Created', 'Create'] : ['Updated', 'Update'];
    const note = `${reason.toLowerCase()} ${kind.kind} ${key.name} to match the spec`;
    loggerFrom(signal).info(note, { [kind.kind]: key.name, operation });
    this.events.event(memcached, 'Normal', `${kind.kind}${reason}`, `${action}${kind.kind}`, note, object);
    return object;
  }

  /** Degraded, with the error, on the object and as a Warning event, for `kubectl describe`. */
  async reportFailure(memcached: Memcached, err: unknown, signal: AbortSignal): Promise<void> {
    const message = err instanceof Error ? err.message : String(err);
    const deleting = isBeingDeleted(memcached);
    const reason = deleting ? 'CleanupFailed' : 'ReconcileFailed';
    this.events.event(memcached, 'Warning', reason, deleting ? 'Finalize' : 'Reconcile', message);
    const before = cloneJson(memcached.status);
    setCondition(memcached, { type: 'Degraded', status: 'True', reason, message });
    // A failing status write must not hide the error being reported: the event carries it.
    await this.writeStatus(memcached, before, signal).catch((writeErr: unknown) => {
      loggerFrom(signal).warn('could not write Degraded to the status', { error: writeErr });
    });
  }

  /** Writes the status when it changed since `before`: an unchanged one would only wake watchers. */
  async writeStatus(memcached: Memcached, before: Memcached['status'], signal: AbortSignal): Promise<void> {
    if (isDeepStrictEqual(before, memcached.status)) return;
    await this.client.status().patch(memcached, mergePatch({ status: memcached.status }), { signal });
  }
}

/** Available once every replica is ready, Progressing until then: as a Deployment reports its rollout. */
function rolloutConditions(readyReplicas: number, replicas: number): ConditionInput[] {
  const message = `${readyReplicas} of ${replicas} replicas ready`;
  if (readyReplicas >= replicas) {
    return [
      { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message },
      { type: 'Progressing', status: 'False', reason: 'RolloutComplete', message },
    ];
  }
  return [
    { type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message },
    { type: 'Progressing', status: 'True', reason: 'RollingOut', message },
  ];
}
