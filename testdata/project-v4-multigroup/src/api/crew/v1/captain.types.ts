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

/** CaptainSpec is the desired state of a Captain. */
export interface CaptainSpec {
  // +optional
  /** foo is an example field of Captain: edit captain.types.ts to replace it with your own. */
  foo?: string;
}

/** CaptainStatus is the observed state of a Captain. */
export interface CaptainStatus {
  // +listType=map
  // +listMapKey=type
  // +optional
  /**
   * conditions are the current state of the Captain: Available, Progressing and Degraded, as in
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
/** Captain is the Schema for the captains API. */
export interface Captain {
  apiVersion?: string;
  kind?: string;
  // +optional
  /** metadata is the standard object metadata: name, namespace, labels, annotations. */
  metadata?: ObjectMeta;

  // +optional
  /** spec is the desired state of the Captain. */
  spec?: CaptainSpec;

  // +optional
  /** status is the observed state of the Captain, written by its controller. */
  status?: CaptainStatus;
}

/** The Captain kind, for the client: `client.get(CaptainKind, key)`. */
export const CaptainKind = defineKind<Captain>({
  apiVersion,
  kind: 'Captain',
  plural: 'captains',
  namespaced: true,
});
