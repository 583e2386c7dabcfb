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

/** FrigateSpec is the desired state of a Frigate. */
export interface FrigateSpec {
  // +optional
  /** foo is an example field of Frigate: edit frigate.types.ts to replace it with your own. */
  foo?: string;
}

/** FrigateStatus is the observed state of a Frigate. */
export interface FrigateStatus {
  // +listType=map
  // +listMapKey=type
  // +optional
  /**
   * conditions are the current state of the Frigate: Available, Progressing and Degraded, as in
   * Kubernetes' API conventions.
   */
  conditions?: Condition[];

  // +optional
  /** observedGeneration is the metadata.generation the controller last acted on. */
  observedGeneration?: int64;
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:storageversion
/** Frigate is the Schema for the frigates API. */
export interface Frigate {
  apiVersion?: string;
  kind?: string;
  // +optional
  /** metadata is the standard object metadata: name, namespace, labels, annotations. */
  metadata?: ObjectMeta;

  // +optional
  /** spec is the desired state of the Frigate. */
  spec?: FrigateSpec;

  // +optional
  /** status is the observed state of the Frigate, written by its controller. */
  status?: FrigateStatus;
}

/** The Frigate kind, for the client: `client.get(FrigateKind, key)`. */
export const FrigateKind = defineKind<Frigate>({
  apiVersion,
  kind: 'Frigate',
  plural: 'frigates',
  namespaced: true,
});
