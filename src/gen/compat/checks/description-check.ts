import type { PropertyCheck } from './check.ts';

/**
 * crdify's `description`. Off by default here (crdify defaults it to Error): descriptions come from
 * doc comments, which change with every wording fix, and a generated project should not fail CI
 * for one. It still counts as handled, so a description change is never an unhandled change.
 */
export const descriptionCheck: PropertyCheck = {
  name: 'description',
  scope: 'property',
  defaultEnforcement: 'off',
  keys: ['description'],
  compare(old, next) {
    const before = old.description ?? '';
    const after = next.description ?? '';
    return before === after
      ? undefined
      : `description changed: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`;
  },
};
