/** Breaking-change checks of generated CRDs against a baseline, named and defaulted as crdify's. */
export {
  checkCompatibility,
  type BaselineRequest,
  type CompatibilityOptions,
  type CompatibilityResult,
} from './check-compatibility.ts';
export { compareCrdSets } from './compare-crd-sets.ts';
export { compareCrds } from './compare-crds.ts';
export { defaultCompatConfig, parseCompatConfig, type CompatConfig } from './compat-config.ts';
export { compatibilityJson, compatibilityLines, incompatibleError, skippedNote } from './compat-report.ts';
export type { ComparedCrd } from './compared-crd.ts';
export { formatFinding, type Finding } from './finding.ts';
