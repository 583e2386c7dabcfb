/*
 * Copyright The tsoperator authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import { ValidationError, type CustomValidator, type Warnings } from '../../runtime/index.ts';
import type { Memcached } from '../../api/v1/memcached.types.ts';

// The validating webhook `npm run manifests` writes into config/webhook/manifests.yaml. The API server
// calls it on create and update (add `delete` to the verbs to have validateDelete called too).
// +kubebuilder:webhook:path=/validate-crew-testproject-org-v1-memcached,mutating=false,failurePolicy=fail,sideEffects=None,groups=crew.testproject.org,resources=memcacheds,verbs=create;update,versions=v1,name=vmemcached-v1.kb.io,admissionReviewVersions=v1

/**
 * Names longer than a label value can be are refused, in the example rule below: the objects made
 * for a Memcached carry its name in their labels.
 */
const MAX_NAME_LENGTH = 63;

/**
 * Admits or refuses a Memcached: return warnings (kubectl prints them) to admit it, throw a
 * ValidationError naming the fields at fault to refuse it.
 */
export class MemcachedValidator implements CustomValidator<Memcached> {
  validateCreate(memcached: Memcached): Warnings {
    return validateMemcached(memcached);
  }

  validateUpdate(_oldMemcached: Memcached, memcached: Memcached): Warnings {
    return validateMemcached(memcached);
  }

  validateDelete(): Warnings {
    // Called only once `delete` is in the marker's verbs; refuse here to protect objects in use.
    return [];
  }
}

/** An example rule: replace it with your kind's own, such as rules across the fields of its spec. */
function validateMemcached(memcached: Memcached): Warnings {
  const name = memcached.metadata?.name ?? '';
  if (name.length > MAX_NAME_LENGTH) {
    const message = `must be no more than ${MAX_NAME_LENGTH.toString()} characters`;
    throw new ValidationError([{ field: 'metadata.name', type: 'TooLong', message }]);
  }
  return [];
}
