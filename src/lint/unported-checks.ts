/**
 * kube-api-linter's checks tsoperator does not have yet. A configuration copied from a Kubebuilder
 * project may name them: enabling one is an error that says so, disabling one is what the user
 * wants already, and settings for one are noted as ignored.
 */
export const UNPORTED_CHECKS: readonly string[] = [
  'arrayofstruct',
  'defaultorrequired',
  'defaults',
  'dependenttags',
  'forbiddenmarkers',
  'minlength',
  'namingconventions',
  'nomaps',
  'nonpointerstructs',
  'nonullable',
  'noreferences',
  'preferredmarkers',
];
