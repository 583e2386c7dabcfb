/** A `rbac.authorization.k8s.io/v1` PolicyRule; empty lists are left out, as Go's omitempty does. */
export interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
  verbs: string[];
}
