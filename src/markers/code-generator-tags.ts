/**
 * The tags of Kubernetes' code generators (k8s.io/code-generator's activation, input and auxiliary
 * tags, as its apidefinitions package lists them), which Go API types ported to TypeScript often
 * still carry. controller-gen ignores them, and so does tsoperator, without a warning.
 */
const CODE_GENERATOR_TAGS: ReadonlySet<string> = new Set([
  'k8s:conversion-gen',
  'k8s:conversion-gen-external-types',
  'k8s:conversion-fn',
  'k8s:defaulter-gen',
  'k8s:defaulter-gen-input',
  'k8s:validation-gen',
  'k8s:validation-gen-input',
  'k8s:validation-gen-nolint',
  'k8s:validation-gen-scheme-registry',
  'k8s:validation-gen-test-fixture',
  'k8s:validation-gen-test-targets',
  'k8s:prerelease-lifecycle-gen',
  'k8s:deepcopy-gen',
  'k8s:register-gen',
  'k8s:openapi-gen',
  'k8s:openapi-model-package',
  'k8s:protobuf-gen',
  'k8s:client-gen',
  'k8s:applyconfiguration-gen',
  'k8s:informer-gen',
  'k8s:lister-gen',
]);

/**
 * Whether a marker name (without `+`, before any `=`) is a code-generator tag, including the
 * sub-tags a generator reads below its own (`k8s:deepcopy-gen:interfaces`,
 * `k8s:prerelease-lifecycle-gen:introduced`, `k8s:conversion-gen:explicit-from`).
 */
export function isCodeGeneratorTag(name: string): boolean {
  if (CODE_GENERATOR_TAGS.has(name)) return true;
  const colon = name.indexOf(':', 'k8s:'.length);
  return colon > 0 && CODE_GENERATOR_TAGS.has(name.slice(0, colon));
}
