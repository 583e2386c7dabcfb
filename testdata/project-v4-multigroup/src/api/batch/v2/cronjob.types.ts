/*
 * Copyright The tsoperator authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import { defineKind, type Condition, type int64, type ObjectMeta } from '../../../runtime/index.ts';
import { apiVersion } from './groupversion-info.ts';

// Edit this file to define your API: run `npm run manifests` after each change to regenerate the CRD.
// Markers (`+kubebuilder:...`) go above a declaration's doc comment, or inside it.

/** CronJobSpec is the desired state of a CronJob. */
export interface CronJobSpec {
  // +required
  /** schedule in Cron format, one field for each of its parts. */
  schedule: CronSchedule;

  // +kubebuilder:default:=Allow
  // +optional
  /** concurrencyPolicy says how to treat concurrent executions of a Job. */
  concurrencyPolicy?: 'Allow' | 'Forbid' | 'Replace';

  // +optional
  /** suspend tells the controller to suspend subsequent executions. */
  suspend?: boolean;
}

/** CronSchedule is a Cron schedule, one field for each of its five parts; `*` where left out. */
export interface CronSchedule {
  // +optional
  /** minute of the hour. */
  minute?: string;

  // +optional
  /** hour of the day. */
  hour?: string;

  // +optional
  /** dayOfMonth is the day of the month. */
  dayOfMonth?: string;

  // +optional
  /** month of the year. */
  month?: string;

  // +optional
  /** dayOfWeek is the day of the week. */
  dayOfWeek?: string;
}

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
