/*
 * Copyright The tsoperator authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import {
  defineKind,
  type Condition,
  type int32,
  type int64,
  type ObjectMeta,
  type Time,
} from '../../../runtime/index.ts';
import { apiVersion } from './groupversion-info.ts';

// Edit this file to define your API: run `npm run manifests` after each change to regenerate the CRD.
// Markers (`+kubebuilder:...`) go above a declaration's doc comment, or inside it.

/** CronJobSpec is the desired state of a CronJob. */
export interface CronJobSpec {
  // +kubebuilder:validation:MinLength:=0
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
  successfulJobsHistoryLimit?: int32;
}

/**
 * ConcurrencyPolicy describes how the job will be handled: Allow runs jobs concurrently, Forbid
 * skips a run while the previous one is running, Replace replaces the running job.
 */
// +kubebuilder:validation:Enum=Allow;Forbid;Replace
export type ConcurrencyPolicy = 'Allow' | 'Forbid' | 'Replace';

/** CronJobStatus is the observed state of a CronJob. */
export interface CronJobStatus {
  // +listType=map
  // +listMapKey=type
  // +optional
  /**
   * conditions are the current state of the CronJob: Available, Progressing and Degraded, as in
   * Kubernetes' API conventions.
   */
  conditions?: Condition[];

  // +optional
  /** observedGeneration is the metadata.generation the controller last acted on. */
  observedGeneration?: int64;

  // +optional
  /** active is how many of the CronJob's Jobs are running. */
  active?: int32;

  // +optional
  /** lastScheduleTime is when a Job was last started. */
  lastScheduleTime?: Time;
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:storageversion
/** CronJob is the Schema for the cronjobs API. */
export interface CronJob {
  apiVersion?: string;
  kind?: string;
  // +optional
  /** metadata is the standard object metadata: name, namespace, labels, annotations. */
  metadata?: ObjectMeta;

  // +optional
  /** spec is the desired state of the CronJob. */
  spec?: CronJobSpec;

  // +optional
  /** status is the observed state of the CronJob, written by its controller. */
  status?: CronJobStatus;
}

/** The CronJob kind, for the client: `client.get(CronJobKind, key)`. */
export const CronJobKind = defineKind<CronJob>({
  apiVersion,
  kind: 'CronJob',
  plural: 'cronjobs',
  namespaced: true,
});
