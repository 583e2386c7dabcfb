/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import type { V1JobTemplateSpec, V1ObjectReference } from '@kubernetes/client-node';
import {
  defineKind,
  type Condition,
  type int32,
  type int64,
  type Json,
  type ObjectMeta,
  type Time,
} from '../../runtime/index.ts';
import { apiVersion } from './groupversion-info.ts';

// Edit this file to define your API: run `npm run manifests` after each change to regenerate the CRD.
// Markers (`+kubebuilder:...`) go above a declaration's doc comment, or inside it.

// #region spec

/** CronJobSpec is the desired state of a CronJob. */
export interface CronJobSpec {
  // +required
  /** schedule says when the CronJob runs, one field for each part of a Cron schedule. */
  schedule: CronSchedule;

  // +kubebuilder:validation:Minimum:=0
  // +optional
  /**
   * startingDeadlineSeconds is the deadline in seconds for starting a Job that missed its
   * scheduled time for any reason. Missed runs past the deadline count as failed ones.
   */
  startingDeadlineSeconds?: int64;

  // +kubebuilder:default:=Allow
  // +optional
  /** concurrencyPolicy says how to treat a run that is due while the previous one still runs. */
  concurrencyPolicy?: ConcurrencyPolicy;

  // +optional
  /** suspend tells the controller to start no more runs; runs already started go on. */
  suspend?: boolean;

  // +required
  /**
   * jobTemplate is the Job to create for each run. `Json<>` because the API server sends the
   * template's timestamps as strings, where client-node's type says Date.
   */
  jobTemplate: Json<V1JobTemplateSpec>;

  // +kubebuilder:validation:Minimum:=0
  // +optional
  /** successfulJobsHistoryLimit is how many successful finished Jobs to keep. */
  successfulJobsHistoryLimit?: int32;

  // +kubebuilder:validation:Minimum:=0
  // +optional
  /** failedJobsHistoryLimit is how many failed finished Jobs to keep. */
  failedJobsHistoryLimit?: int32;
}
// #endregion spec

// #region concurrency-policy

/**
 * ConcurrencyPolicy says what happens to a run that is due while the previous one still runs:
 * Allow runs them side by side, Forbid skips the new run, Replace stops the running one first.
 */
// +kubebuilder:validation:Enum=Allow;Forbid;Replace
export type ConcurrencyPolicy = 'Allow' | 'Forbid' | 'Replace';
// #endregion concurrency-policy

// #region schedule

/** CronSchedule is a Cron schedule, one field for each of its five parts; `*` where left out. */
export interface CronSchedule {
  // +optional
  /** minute of the hour: 0-59. */
  minute?: CronField;

  // +optional
  /** hour of the day: 0-23. */
  hour?: CronField;

  // +optional
  /** dayOfMonth is the day of the month: 1-31. */
  dayOfMonth?: CronField;

  // +optional
  /** month of the year: 1-12. */
  month?: CronField;

  // +optional
  /** dayOfWeek is the day of the week: 0-6, Sunday first. */
  dayOfWeek?: CronField;
}

/** CronField is one part of a Cron schedule: a number, a range, a list or a step, e.g. `*\/5`. */
export type CronField = string;
// #endregion schedule

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

  // #region status

  // +listType=atomic
  // +optional
  /** active are the Jobs of this CronJob that are still running. */
  active?: V1ObjectReference[];

  // +optional
  /** lastScheduleTime is when a Job was last started on schedule. */
  lastScheduleTime?: Time;
  // #endregion status
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
/** CronJob is the Schema for the cronjobs API. */
export interface CronJob {
  apiVersion?: string;
  kind?: string;
  // +optional
  /** metadata is the standard object metadata: name, namespace, labels, annotations. */
  metadata?: ObjectMeta;

  // +required
  /** spec is the desired state of the CronJob. */
  spec: CronJobSpec;

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
