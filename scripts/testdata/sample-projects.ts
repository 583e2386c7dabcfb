import { cronjobTutorial } from './cronjob-tutorial.ts';
import { gettingStarted } from './getting-started.ts';
import { multiversionTutorial } from './multiversion-tutorial.ts';
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

/** The book's tutorial projects under docs/projects/, by folder name: the tutorial pages include their files. */
export const TUTORIAL_PROJECTS: Readonly<Record<string, SampleProject>> = {
  'getting-started': gettingStarted,
  'cronjob-tutorial': cronjobTutorial,
  'multiversion-tutorial': multiversionTutorial,
};

/** Where each set of generated projects is committed, relative to the checkout. */
export const PROJECT_FOLDERS: Readonly<Record<string, Readonly<Record<string, SampleProject>>>> = {
  testdata: SAMPLE_PROJECTS,
  'docs/projects': TUTORIAL_PROJECTS,
};
