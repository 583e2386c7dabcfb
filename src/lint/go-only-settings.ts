/**
 * kube-api-linter settings about Go alone, which TypeScript types have nothing to match (protobuf
 * and patch-strategy tags, pointers, omitempty and omitzero, a Go field name against its json tag):
 * each with the values kube-api-linter takes, or the settings it holds. A configuration copied from
 * a Kubebuilder project has them, so they are read (a wrong value is an error there and here) and
 * each is noted as ignored.
 */
export interface GoOnlySettings {
  readonly [key: string]: readonly string[] | GoOnlySettings;
}

/** optionalfields' and requiredfields' omitempty and omitzero settings, the same in both. */
export const OMIT_SETTINGS: GoOnlySettings = {
  omitempty: { policy: ['SuggestFix', 'Warn', 'Ignore'] },
  omitzero: { policy: ['SuggestFix', 'Warn', 'Forbid'] },
};
