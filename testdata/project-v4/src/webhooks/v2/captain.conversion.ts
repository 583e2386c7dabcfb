/*
 * Copyright The tsoperator authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import type { SpokeConversion } from '../../runtime/index.ts';
import type { Captain } from '../../api/v1/captain.types.ts';
import type { Captain as CaptainV2 } from '../../api/v2/captain.types.ts';

/**
 * Converts Captain v2 to and from v1, the hub every version converts through: the API server calls the
 * conversion webhook when a client reads or writes a version other than the one stored. Fields both
 * versions have with the same type are copied. Where they differ, what is written below compiles but
 * cannot know what you meant (a renamed field, a new structure): write that here, and keep what a
 * version cannot hold in an annotation, so that nothing is lost on the way back.
 * - spec.homePort is of another type in v1 than in v2: converted either way, it is left out.
 * - spec.motto is v2's only: it is lost on the way through v1.
 */
export const captainV2Conversion: SpokeConversion<Captain, CaptainV2> = {
  convertTo(spoke: CaptainV2): Captain {
    return { ...spoke, spec: specToV1(spoke.spec) };
  },
  convertFrom(hub: Captain): CaptainV2 {
    return { ...hub, spec: specToV2(hub.spec) };
  },
};

/** A v2 spec as v1 has it. */
function specToV1(spec: CaptainV2['spec']): Captain['spec'] {
  if (spec === undefined) return undefined;
  return { shipName: spec.shipName, crewSize: spec.crewSize, rank: spec.rank };
}

/** A v1 spec as v2 has it. */
function specToV2(spec: Captain['spec']): CaptainV2['spec'] {
  if (spec === undefined) return undefined;
  return { shipName: spec.shipName, crewSize: spec.crewSize, rank: spec.rank };
}
