import { boundChecks } from './bound-checks.ts';
import type { CompatibilityCheck, CrdCheck, CrdSetCheck, PropertyCheck } from './check.ts';
import { crdRemovalCheck } from './crd-removal-check.ts';
import { defaultCheck } from './default-check.ts';
import { descriptionCheck } from './description-check.ts';
import { enumCheck } from './enum-check.ts';
import { existingFieldRemovalCheck } from './existing-field-removal-check.ts';
import { nullableCheck } from './nullable-check.ts';
import { patternCheck } from './pattern-check.ts';
import { requiredCheck } from './required-check.ts';
import { scopeCheck } from './scope-check.ts';
import { storedVersionRemovalCheck } from './stored-version-removal-check.ts';
import { typeCheck } from './type-check.ts';

/** Checks of whole CRDs, against the baseline only. */
export const crdChecks: readonly CrdCheck[] = [
  scopeCheck,
  existingFieldRemovalCheck,
  storedVersionRemovalCheck,
];

/** Checks of the baseline's CRDs against the generated ones as sets (tsoperator's, not crdify's). */
export const crdSetChecks: readonly CrdSetCheck[] = [crdRemovalCheck];

/** Checks of schema nodes: within a version against the baseline, and across served versions. */
export const propertyChecks: readonly PropertyCheck[] = [
  enumCheck,
  defaultCheck,
  ...boundChecks,
  requiredCheck,
  typeCheck,
  patternCheck,
  nullableCheck,
  descriptionCheck,
];

/** Every check, by the name the config file and the findings use. */
export const compatibilityChecks: readonly CompatibilityCheck[] = [
  ...crdChecks,
  ...crdSetChecks,
  ...propertyChecks,
];

/** crdify's name for the changes no check judges; they fail closed unless configured. */
export const UNHANDLED_CHECK = 'unhandled';
