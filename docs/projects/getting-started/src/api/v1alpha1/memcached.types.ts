/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import { defineKind, type Condition, type int32, type int64, type ObjectMeta } from '../../runtime/index.ts';
import { apiVersion } from './groupversion-info.ts';

// Edit this file to define your API: run `npm run manifests` after each change to regenerate the CRD.
// Markers (`+kubebuilder:...`) go above a declaration's doc comment, or inside it.

/** MemcachedSpec is the desired state of a Memcached: the image it runs, how many copies, on which port. */
export interface MemcachedSpec {
  // +kubebuilder:default="memcached:1.6.26-alpine"
  // +kubebuilder:validation:MinLength=1
  // +required
  /** image is the container image each replica runs. */
  image: string;

  // +kubebuilder:default=1
  // +kubebuilder:validation:Minimum=0
  // +optional
  /** replicas is the number of Pods to run; 0 stops them all and keeps the Memcached. */
  replicas?: int32;

  // +kubebuilder:default=11211
  // +kubebuilder:validation:Minimum=1
  // +kubebuilder:validation:Maximum=65535
  // +required
  /** port is the port the container listens on, and the port its Service exposes. */
  port: int32;
}

/** MemcachedStatus is the observed state of a Memcached. */
export interface MemcachedStatus {
  // +listType=map
  // +listMapKey=type
  // +optional
  /**
   * conditions are the current state of the Memcached: Available, Progressing and Degraded, as in
   * Kubernetes' API conventions.
   */
  conditions?: Condition[];

  // +optional
  /** readyReplicas is the number of Pods of the Memcached's Deployment that are ready. */
  readyReplicas?: int32;

  // +optional
  /** observedGeneration is the metadata.generation the controller last acted on. */
  observedGeneration?: int64;
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:storageversion
// +kubebuilder:printcolumn:name="Image",type=string,JSONPath=`.spec.image`
// +kubebuilder:printcolumn:name="Ready",type=integer,JSONPath=`.status.readyReplicas`
// +kubebuilder:printcolumn:name="Available",type=string,JSONPath=`.status.conditions[?(@.type=="Available")].status`
/** Memcached is the Schema for the memcacheds API: an image run as a Deployment behind a Service. */
export interface Memcached {
  apiVersion?: string;
  kind?: string;
  // +optional
  /** metadata is the standard object metadata: name, namespace, labels, annotations. */
  metadata?: ObjectMeta;

  // +required
  /** spec is the desired state of the Memcached: the image it runs, how many copies, on which port. */
  spec: MemcachedSpec;

  // +optional
  /** status is the observed state of the Memcached, written by its controller. */
  status?: MemcachedStatus;
}

/** The Memcached kind, for the client: `client.get(MemcachedKind, key)`. */
export const MemcachedKind = defineKind<Memcached>({
  apiVersion,
  kind: 'Memcached',
  plural: 'memcacheds',
  namespaced: true,
});
