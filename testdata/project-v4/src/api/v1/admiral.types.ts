/*
 * Copyright The tsoperator authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import { defineKind, type Condition, type int64, type ObjectMeta } from '../../runtime/index.ts';
import { apiVersion } from './groupversion-info.ts';

// Edit this file to define your API: run `npm run manifests` after each change to regenerate the CRD.
// Markers (`+kubebuilder:...`) go above a declaration's doc comment, or inside it.

/** AdmiralSpec is the desired state of a Admiral. */
export interface AdmiralSpec {
  // +optional
  /** foo is an example field of Admiral: edit admiral.types.ts to replace it with your own. */
  foo?: string;
}

/** AdmiralStatus is the observed state of a Admiral. */
export interface AdmiralStatus {
  // +listType=map
  // +listMapKey=type
  // +optional
  /**
   * conditions are the current state of the Admiral: Available, Progressing and Degraded, as in
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
// +kubebuilder:resource:scope=Cluster
/** Admiral is the Schema for the admirals API. */
export interface Admiral {
  apiVersion?: string;
  kind?: string;
  // +optional
  /** metadata is the standard object metadata: name, namespace, labels, annotations. */
  metadata?: ObjectMeta;

  // +optional
  /** spec is the desired state of the Admiral. */
  spec?: AdmiralSpec;

  // +optional
  /** status is the observed state of the Admiral, written by its controller. */
  status?: AdmiralStatus;
}

/** The Admiral kind, for the client: `client.get(AdmiralKind, key)`. */
export const AdmiralKind = defineKind<Admiral>({
  apiVersion,
  kind: 'Admiral',
  plural: 'admirals',
  namespaced: false,
});
