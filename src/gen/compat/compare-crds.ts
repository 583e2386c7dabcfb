import type { CrdVersion } from '../crd/custom-resource-definition.ts';
import {
  existingFieldRemovalCheck,
  REMOVED_FIELD,
  removedFields,
} from './checks/existing-field-removal-check.ts';
import { crdChecks } from './checks/registry.ts';
import { enforcementOf, type CompatConfig } from './compat-config.ts';
import type { ComparedCrd } from './compared-crd.ts';
import { compareSchemas, type SchemaProblem } from './compare-schemas.ts';
import { compareFindings, severityOf, type Finding } from './finding.ts';
import { compareKubeVersions } from './kube-version-order.ts';

/**
 * Everything in `next` that is incompatible with `old`, the same CRD's baseline, as crdify runs its
 * three validators: whole-CRD checks; each version against the baseline's version of that name;
 * and each pair of served versions of `next` (older to newer), less what the baseline's own served
 * versions already had. That last is skipped when the config says `Ignore` and the CRD has a
 * conversion webhook: `conversionWebhook` (from PROJECT), or a `spec.conversion` says so (a
 * cluster's CRD does; a generated one never, the kustomize patch adds it).
 */
export function compareCrds(
  old: ComparedCrd,
  next: ComparedCrd,
  config: CompatConfig,
  conversionWebhook: boolean,
): Finding[] {
  const crd = next.metadata.name;
  const findings: Finding[] = [];
  for (const check of crdChecks) {
    const enforcement = enforcementOf(config, check);
    if (enforcement === 'off') continue;
    for (const problem of check.compare(old, next))
      findings.push({ crd, ...problem, check: check.name, severity: severityOf(enforcement) });
  }
  for (const version of next.spec.versions) {
    const before = old.spec.versions.find((v) => v.name === version.name);
    if (before)
      findings.push(
        ...toFindings(crd, version.name, compareSchemas(schemaOf(before), schemaOf(version), config)),
      );
  }
  const converted =
    conversionWebhook || [old, next].some((crd) => crd.spec.conversion?.strategy === 'Webhook');
  if (!(converted && config.conversion === 'Ignore')) {
    const known = new Set(servedVersionProblems(old, config).map(problemKey));
    const fresh = servedVersionProblems(next, config).filter((p) => !known.has(problemKey(p)));
    for (const problem of fresh) findings.push(...toFindings(crd, problem.pair, [problem]));
  }
  return findings.sort(compareFindings);
}

interface PairProblem extends SchemaProblem {
  readonly pair: string;
}

/**
 * Each served version against every version Kubernetes ranks higher, as clients move up to them:
 * its schema changes, and its fields the higher version lacks (which that version prunes).
 */
function servedVersionProblems(crd: ComparedCrd, config: CompatConfig): PairProblem[] {
  const served = crd.spec.versions
    .filter((v) => v.served)
    .sort((a, b) => compareKubeVersions(a.name, b.name));
  return served.flatMap((older, i) =>
    served
      .slice(i + 1)
      .flatMap((newer) =>
        [
          ...removalProblems(schemaOf(older), schemaOf(newer), config),
          ...compareSchemas(schemaOf(older), schemaOf(newer), config),
        ].map((p) => ({ ...p, pair: `${older.name}->${newer.name}` })),
      ),
  );
}

function removalProblems(
  older: CrdVersion['schema']['openAPIV3Schema'] | undefined,
  newer: CrdVersion['schema']['openAPIV3Schema'] | undefined,
  config: CompatConfig,
): SchemaProblem[] {
  const check = existingFieldRemovalCheck.name;
  const enforcement = enforcementOf(config, existingFieldRemovalCheck);
  if (enforcement === 'off') return [];
  return removedFields(older, newer).map((path) => ({ path, check, enforcement, message: REMOVED_FIELD }));
}

function problemKey(p: PairProblem): string {
  return JSON.stringify([p.pair, p.path, p.check, p.message]);
}

function schemaOf(version: CrdVersion): CrdVersion['schema']['openAPIV3Schema'] | undefined {
  return version.schema?.openAPIV3Schema;
}

function toFindings(crd: string, version: string, problems: readonly SchemaProblem[]): Finding[] {
  return problems.map(({ path, check, enforcement, message }) => ({
    crd,
    version,
    path,
    check,
    severity: severityOf(enforcement),
    message,
  }));
}
