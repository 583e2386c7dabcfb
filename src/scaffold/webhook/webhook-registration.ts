import { importPath } from '../api/api-paths.ts';
import { MAIN_FILE } from '../api/controller-registration.ts';

/** The lines `create webhook` adds to main.ts for a kind version's webhooks. */
export interface WebhookRegistration {
  /** `setupCaptainV1Webhooks`: the function of the setup file that registers them. */
  readonly setupName: string;
  /** At `+tsoperator:scaffold:imports`. */
  readonly importLine: string;
  /** At `+tsoperator:scaffold:controllers`. */
  readonly call: string;
}

/** The main.ts lines that set up the webhooks of `kind` `version`, whose setup file is `setupPath`. */
export function webhookRegistration(kind: string, version: string, setupPath: string): WebhookRegistration {
  const setupName = `setup${kind}${version.charAt(0).toUpperCase()}${version.slice(1)}Webhooks`;
  return {
    setupName,
    importLine: `import { ${setupName} } from '${importPath(MAIN_FILE, setupPath)}';`,
    call: `${setupName}(mgr);`,
  };
}
