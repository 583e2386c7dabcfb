/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

// Package-level markers of the cache.example.com/v1alpha1 API, read by `tsoperator manifests`.
// +kubebuilder:object:generate=true
// +groupName=cache.example.com

/** The group and version of the kinds in this folder. */
export const groupVersion = { group: 'cache.example.com', version: 'v1alpha1' } as const;

/** `cache.example.com/v1alpha1`: the apiVersion of objects of this group and version. */
export const apiVersion = `${groupVersion.group}/${groupVersion.version}` as const;
