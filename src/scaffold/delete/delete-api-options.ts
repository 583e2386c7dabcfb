import type { ResourceConfig } from '../../project/project-config.ts';
import type { Change } from '../change.ts';

/** What `tsoperator delete api` takes. */
export interface DeleteApiOptions {
  /** The project folder. */
  readonly dir: string;
  readonly kind: string;
  /** Default: the project's group, as `create api`'s. */
  readonly group?: string;
  /** Default: v1, as `create api`'s. */
  readonly version?: string;
  /** Delete the files the user changed too, after keeping a copy of each. */
  readonly force: boolean;
}

/** The plan of `delete api`: every file it deletes, changes or keeps aside. */
export interface DeleteApiPlan {
  readonly changes: Change[];
  readonly defaultsTaken: readonly string[];
  readonly resource: ResourceConfig;
  /** Where the copies of the files the user changed go (under --force), or undefined when none. */
  readonly keptAsideIn: string | undefined;
}
