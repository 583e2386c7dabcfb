/** What `tsoperator init` takes, defaults applied by the command. */
import type { OptionalPlugin } from '../../grafana/grafana-plugin.ts';

export interface InitOptions {
  /** The folder to scaffold into. */
  readonly dir: string;
  /** Default: `my.domain`. */
  readonly domain: string;
  /** A DNS-1123 label. Default: the folder's name. */
  readonly projectName: string;
  /** Copyright holder in the license headers and package.json author. */
  readonly owner?: string;
  readonly license: 'apache2' | 'none';
  /** The operator watches one namespace: Roles instead of ClusterRoles. */
  readonly namespaced: boolean;
  readonly multigroup: boolean;
  /** Every replica reconciles a shard of the objects, in place of one leader for all. Default: false. */
  readonly sharded?: boolean;
  /** Regenerate an initialised project's files (the runtime included); changed files are kept. */
  readonly force: boolean;
  /** Optional plugins to add at once, as `edit --plugins` adds them later. Default: none. */
  readonly plugins?: readonly OptionalPlugin[];
  /**
   * The npm spec package.json takes tsoperator from. Default: `^<version>` from the registry, or
   * this checkout (`file:`) when tsoperator runs from one (see tsoperatorDependency).
   */
  readonly tsoperatorDependency?: string;
}

/** The values the init templates see. */
export interface InitTemplateData {
  readonly projectName: string;
  readonly domain: string;
  readonly owner: string | undefined;
  readonly license: 'apache2' | 'none';
  readonly namespaced: boolean;
  /** The manager shards its controllers across its replicas. */
  readonly sharded: boolean;
  /** The license comment that opens each TypeScript file, or ''. */
  readonly licenseHeader: string;
  readonly tsoperatorVersion: string;
  /** `name → version range` for the generated package.json, from tsoperator's own. */
  readonly versions: Readonly<Record<string, string>>;
  /** `name → version range` of the packages the rendered runtime imports. */
  readonly dependencies: Readonly<Record<string, string>>;
  /** A stable, project-unique leader election lease name, as Kubebuilder derives it. */
  readonly leaderElectionId: string;
}
