/**
 * The arguments of one `+kubebuilder:rbac` marker, as controller-gen reads them: lists are the
 * `;`-separated values, absent lists are empty.
 */
export interface RbacMarker {
  readonly groups: readonly string[];
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
  readonly verbs: readonly string[];
  readonly urls: readonly string[];
  /** Set: the rule goes into a Role in this namespace instead of the ClusterRole. */
  readonly namespace?: string;
  /** Set: the rule goes into a role of this name instead of the generator's default. */
  readonly roleName?: string;
}
