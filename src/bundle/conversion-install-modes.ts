import { TsoperatorError } from '../errors.ts';
import type { CsvDocument } from './base-csv.ts';

interface InstallMode {
  readonly type?: string;
  readonly supported?: boolean;
}

/**
 * Refuses a CSV that OLM would refuse to install: one with conversion webhooks that supports an
 * install mode besides AllNamespaces. A CRD's conversion webhook serves every namespace, so OLM
 * (v0's install step and v1's bundle checks) takes such a CSV only as a cluster-wide singleton,
 * while operator-framework's bundle validators let it pass.
 */
export function checkConversionInstallModes(csv: CsvDocument, baseCsvPath: string): void {
  const conversions = (
    (csv.spec['webhookdefinitions'] as { type?: string; generateName?: string }[] | undefined) ?? []
  )
    .filter((webhook) => webhook.type === 'ConversionWebhook')
    .map((webhook) => webhook.generateName ?? '');
  if (conversions.length === 0) return;
  const supported = ((csv.spec['installModes'] as InstallMode[] | undefined) ?? [])
    .filter((mode) => mode.supported === true)
    .map((mode) => mode.type ?? '');
  if (supported.length === 1 && supported[0] === 'AllNamespaces') return;
  throw new TsoperatorError(
    `the conversion webhook ${conversions.join(', ')} needs a CSV that supports only the AllNamespaces ` +
      `install mode, and ${baseCsvPath} supports ${supported.length === 0 ? 'none' : supported.join(', ')}: ` +
      'OLM refuses to install it. In its installModes, set AllNamespaces supported: true and the others ' +
      'false (OLM then grants the Roles in every namespace), or remove the conversion webhook.',
  );
}
