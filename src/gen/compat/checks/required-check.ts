import type { PropertyCheck } from './check.ts';

/**
 * crdify's `required`: a field newly required on an object the baseline already had makes stored
 * objects without it invalid. It is judged on the parent that lists it, so a required field of an
 * object that is itself new (and optional) is never reported: no stored object has that parent.
 */
export const requiredCheck: PropertyCheck = {
  name: 'required',
  scope: 'property',
  defaultEnforcement: 'error',
  keys: ['required'],
  compare(old, next) {
    const before = new Set(old.required ?? []);
    const added = (next.required ?? []).filter((field) => !before.has(field)).sort();
    return added.length > 0 ? `new required fields: [${added.join(', ')}]` : undefined;
  },
};
