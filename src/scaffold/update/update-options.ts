/** What `tsoperator alpha update` takes. */
export interface UpdateOptions {
  /** The project folder. */
  readonly dir: string;
  /** The version the project was generated with. Default: PROJECT's `cliVersion`. */
  readonly fromVersion?: string;
  /**
   * The old tsoperator itself, a package folder or a packed `.tgz`, instead of
   * `tsoperator@<fromVersion>` from the npm registry.
   */
  readonly from?: string;
  /** Update a project that is not in git or has uncommitted changes. */
  readonly force: boolean;
  /** Plan and report, write nothing. */
  readonly dryRun: boolean;
}
