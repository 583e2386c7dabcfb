/*
 * Copyright The tsoperator authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import type { CustomDefaulter } from '../../runtime/index.ts';
import type { Memcached } from '../../api/v1/memcached.types.ts';

// The mutating webhook `npm run manifests` writes into config/webhook/manifests.yaml. The API server
// calls it on create and update, before validation; failurePolicy=fail refuses writes while it is down.
// +kubebuilder:webhook:path=/mutate-crew-testproject-org-v1-memcached,mutating=true,failurePolicy=fail,sideEffects=None,groups=crew.testproject.org,resources=memcacheds,verbs=create;update,versions=v1,name=mmemcached-v1.kb.io,admissionReviewVersions=v1

/**
 * Fills in what a Memcached leaves out. It changes the object it is given; the webhook answers the
 * API server with a JSON patch of those changes.
 */
export class MemcachedDefaulter implements CustomDefaulter<Memcached> {
  default(): void {
    // Memcached has no field for an example default: each is required, has a +kubebuilder:default
    // (which the API server applies before it calls this webhook) or is not a plain value. Defaults
    // no marker can state, such as one computed from other fields, go here, on the object given:
    //   default(memcached: Memcached): void {
    //     memcached.spec.replicas ??= ...;
    //   }
  }
}
