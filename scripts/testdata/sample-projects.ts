import { projectV4 } from './project-v4.ts';
import { projectV4Multigroup } from './project-v4-multigroup.ts';
import type { Tsoperator } from './run-tsoperator.ts';

/** How a sample project is made: commands run in `dir`, and edits to the files they wrote. */
export type SampleProject = (tsoperator: Tsoperator, dir: string) => Promise<void>;

/** The sample projects under testdata/, by folder name. */
export const SAMPLE_PROJECTS: Readonly<Record<string, SampleProject>> = {
  'project-v4': projectV4,
  'project-v4-multigroup': projectV4Multigroup,
};
