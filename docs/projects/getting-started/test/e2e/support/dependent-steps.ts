/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import type { TestContext } from 'node:test';

/** A test function of node:test, as `it` takes it. */
export type StepFn = (t: TestContext) => Promise<void>;

/**
 * Steps of one walk through an object's life, each starting where the one before left it. After the
 * first failure the later steps are skipped, naming it: the output shows the one cause, not a cascade
 * of failures that only follow from it.
 */
export function dependentSteps(): (body: () => Promise<void>) => StepFn {
  let failed: string | undefined;
  return (body) => async (t) => {
    if (failed !== undefined) {
      t.skip(`"${failed}" failed, and this step starts where it should have ended`);
      return;
    }
    try {
      await body();
    } catch (err) {
      failed = t.name;
      throw err;
    }
  };
}
