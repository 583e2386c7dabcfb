/*
 * Copyright The tsoperator authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import { ValidationError, type CustomValidator, type Warnings } from '../../runtime/index.ts';
import type { Captain } from '../../api/v1/captain.types.ts';

// The validating webhook `npm run manifests` writes into config/webhook/manifests.yaml. The API server
// calls it on create and update (add `delete` to the verbs to have validateDelete called too).
// +kubebuilder:webhook:path=/validate-crew-testproject-org-v1-captain,mutating=false,failurePolicy=fail,sideEffects=None,groups=crew.testproject.org,resources=captains,verbs=create;update,versions=v1,name=vcaptain-v1.kb.io,admissionReviewVersions=v1

/** Longer values of spec.shipName are admitted with a warning, in the example rule below. */
const MAX_SHIP_NAME_LENGTH = 63;

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
  const shipName = captain.spec?.shipName;
  if (shipName === '') {
    throw new ValidationError([{ field: 'spec.shipName', type: 'Required', message: 'must not be empty' }]);
  }
  if (shipName !== undefined && shipName.length > MAX_SHIP_NAME_LENGTH) {
    return [`spec.shipName is longer than ${MAX_SHIP_NAME_LENGTH.toString()} characters`];
  }
  return [];
}
