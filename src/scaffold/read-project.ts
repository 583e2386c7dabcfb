import { TsoperatorError } from '../errors.ts';
import type { ProjectConfig } from '../project/project-config.ts';
import { PROJECT_FILE, parseProjectFile } from '../project/project-file.ts';
import type { StagingTree } from './staging-tree.ts';

/** The project's PROJECT file as the plan sees it, or the error that says where to run the command. */
export async function readProject(tree: StagingTree): Promise<ProjectConfig> {
  const text = await tree.read(PROJECT_FILE);
  if (text === undefined) {
    throw new TsoperatorError(
      'no PROJECT file here: run `tsoperator init` first, or run this in the project folder',
    );
  }
  return parseProjectFile(text);
}
