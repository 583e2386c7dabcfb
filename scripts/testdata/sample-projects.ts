import { projectV4 } from './project-v4.ts';
import { projectV4Multigroup } from './project-v4-multigroup.ts';
import type { Tsoperator } from './run-tsoperator.ts';

/** Where a sample project is made, and with what. */
export interface SampleContext {
  /** The CLI, run in the project's folder. */
  readonly tsoperator: Tsoperator;
  /** The project's folder. */
  readonly dir: string;
  /** The kubectl of the envtest binaries: its kustomize is the one every machine builds deploy/ with. */
  readonly kubectl: string;
}

/** How a sample project is made: commands, and edits to the files they wrote. */
export type SampleProject = (context: SampleContext) => Promise<void>;

/** The sample projects under testdata/, by folder name. */
export const SAMPLE_PROJECTS: Readonly<Record<string, SampleProject>> = {
  'project-v4': projectV4,
  'project-v4-multigroup': projectV4Multigroup,
};
