/*
 * Copyright The tsoperator authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import { ValidationError, type CustomValidator, type Warnings } from '../../../runtime/index.ts';
import type { Captain } from '../../../api/crew/v1/captain.types.ts';

// The validating webhook `npm run manifests` writes into config/webhook/manifests.yaml. The API server
// calls it on create and update (add `delete` to the verbs to have validateDelete called too).
// +kubebuilder:webhook:path=/validate-crew-testproject-org-v1-captain,mutating=false,failurePolicy=fail,sideEffects=None,groups=crew.testproject.org,resources=captains,verbs=create;update,versions=v1,name=vcaptain-v1.kb.io,admissionReviewVersions=v1

/** Longer values of spec.foo are admitted with a warning, in the example rule below. */
const MAX_FOO_LENGTH = 63;

/**
 * Admits or refuses a Captain: return warnings (kubectl prints them) to admit it, throw a
 * ValidationError naming the fields at fault to refuse it.
 */
export class CaptainValidator implements CustomValidator<Captain> {
  validateCreate(captain: Captain): Warnings {
    return validateCaptain(captain);
  }

  validateUpdate(_oldCaptain: Captain, captain: Captain): Warnings {
    return validateCaptain(captain);
  }

  validateDelete(): Warnings {
    // Called only once `delete` is in the marker's verbs; refuse here to protect objects in use.
    return [];
  }
}

/** An example rule: replace it with your kind's own. */
function validateCaptain(captain: Captain): Warnings {
  const foo = captain.spec?.foo;
  if (foo === '') {
    throw new ValidationError([{ field: 'spec.foo', type: 'Required', message: 'must not be empty' }]);
  }
  if (foo !== undefined && foo.length > MAX_FOO_LENGTH) {
    return [`spec.foo is longer than ${MAX_FOO_LENGTH.toString()} characters`];
  }
  return [];
}
