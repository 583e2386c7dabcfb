import { crdSetChecks } from './checks/registry.ts';
import { enforcementOf, type CompatConfig } from './compat-config.ts';
import type { ComparedCrd } from './compared-crd.ts';
import { compareFindings, severityOf, type Finding } from './finding.ts';

/** What the generated CRDs (`next`) lack of the baseline's (`old`) as a whole, such as a CRD gone. */
export function compareCrdSets(
  old: readonly ComparedCrd[],
  next: readonly ComparedCrd[],
  config: CompatConfig,
): Finding[] {
  return crdSetChecks
    .flatMap((check) => {
      const enforcement = enforcementOf(config, check);
      if (enforcement === 'off') return [];
      return check
        .compare(old, next)
        .map(({ crd, message }) => ({ crd, check: check.name, severity: severityOf(enforcement), message }));
    })
    .sort(compareFindings);
}
