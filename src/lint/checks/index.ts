import type { LintCheck } from '../lint-check.ts';
import { commentStart } from './comment-start.ts';
import { conditions } from './conditions.ts';
import { conflictingMarkers } from './conflicting-markers.ts';
import { duplicateMarkers } from './duplicate-markers.ts';
import { integers } from './integers.ts';
import { jsonTags } from './json-tags.ts';
import { maxLength } from './max-length.ts';
import { noBools } from './no-bools.ts';
import { noDurations } from './no-durations.ts';
import { noFloats } from './no-floats.ts';
import { noPhase } from './no-phase.ts';
import { noTimestamp } from './no-timestamp.ts';
import { optionalFields } from './optional-fields.ts';
import { optionalOrRequired } from './optional-or-required.ts';
import { requiredFields } from './required-fields.ts';
import { ssaTags } from './ssa-tags.ts';
import { statusOptional } from './status-optional.ts';
import { statusSubresource } from './status-subresource.ts';
import { uniqueMarkers } from './unique-markers.ts';

/** Every check `tsoperator lint` has, each declared once, in kube-api-linter's alphabetical order. */
export const lintChecks: readonly LintCheck[] = [
  commentStart,
  conditions,
  conflictingMarkers,
  duplicateMarkers,
  integers,
  jsonTags,
  maxLength,
  noBools,
  noDurations,
  noFloats,
  noPhase,
  noTimestamp,
  optionalFields,
  optionalOrRequired,
  requiredFields,
  ssaTags,
  statusOptional,
  statusSubresource,
  uniqueMarkers,
];
