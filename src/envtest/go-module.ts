/** Text of a go.mod for a wrapper module that only exists to build its dependencies' commands. */
export function goModuleWrapper(spec: { require: [string, string][]; replace: [string, string][] }): string {
  const lines = ['module tsoperator.local/envtest-build', '', 'go 1.26.0', ''];
  lines.push('require (', ...spec.require.map(([mod, v]) => `\t${mod} ${v}`), ')', '');
  if (spec.replace.length > 0) {
    lines.push('replace (', ...spec.replace.map(([mod, v]) => `\t${mod} => ${mod} ${v}`), ')', '');
  }
  return lines.join('\n');
}

/**
 * The staging modules k8s.io/kubernetes replaces with local folders (`k8s.io/api => ./staging/...`),
 * each paired with its published version: Kubernetes 1.37.2 ships them as v0.37.2.
 */
export function kubernetesStagingReplaces(kubernetesGoMod: string, version: string): [string, string][] {
  const published = `v0.${version.split('.').slice(1).join('.')}`;
  const replaces: [string, string][] = [];
  for (const match of kubernetesGoMod.matchAll(/^\s*(k8s\.io\/[\w.-]+)\s+=>\s+\.\/staging\//gm)) {
    if (match[1]) replaces.push([match[1], published]);
  }
  return replaces;
}
