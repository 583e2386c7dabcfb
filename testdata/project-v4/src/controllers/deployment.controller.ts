/*
 * Copyright The tsoperator authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import {
  DeploymentKind,
  done,
  type Client,
  type EventRecorder,
  type Manager,
  type Reconciler,
  type Request,
  type Result,
} from '../runtime/index.ts';

/**
 * Reconciles Deployment objects: makes the cluster match each one's spec. Called again whenever a
 * Deployment changes.
 */
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch
export class DeploymentReconciler implements Reconciler {
  readonly client: Client;
  /** Events about the objects it reconciles, for `kubectl describe` and `kubectl events`. */
  readonly events: EventRecorder;

  constructor(client: Client, events: EventRecorder) {
    this.client = client;
    this.events = events;
  }

  /** Registers the controller with the manager: it reconciles every Deployment that changes. */
  setup(mgr: Manager): void {
    mgr.controller('deployment').for(DeploymentKind).complete(this);
  }

  async reconcile(req: Request, signal: AbortSignal): Promise<Result> {
    const obj = await this.client.get(DeploymentKind, req, { signal });
    // Deleted: what it owned is garbage-collected through owner references.
    if (!obj) return done();
    // Compare obj with what it should be here, and write the difference.
    return done();
  }
}
