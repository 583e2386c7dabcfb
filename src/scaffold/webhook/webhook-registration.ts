import { importPath } from '../api/api-paths.ts';
import { MAIN_FILE } from '../api/controller-registration.ts';
import { groupWord, mainImport } from '../api/main-import.ts';

/** The lines `create webhook` adds to main.ts for a kind version's webhooks. */
export interface WebhookRegistration {
  /** `setupCaptainV1Webhooks` (`setupShipCaptainV1Webhooks` beside another group's): main.ts's name of the setup function. */
  readonly setupName: string;
  /** At `+tsoperator:scaffold:imports`. */
  readonly importLine: string;
  /** At `+tsoperator:scaffold:controllers`. */
  readonly call: string;
}

/**
 * The main.ts lines that set up the webhooks of `kind` `version` of `group`, whose setup file is
 * `setupPath`, in the main.ts whose text is `main` (see mainImport for when the function is aliased).
 */
export function webhookRegistration(
  resource: { readonly group: string; readonly version: string; readonly kind: string },
  setupPath: string,
  main: string,
): WebhookRegistration {
  const { group, version, kind } = resource;
  const kindVersion = `${kind}${version.charAt(0).toUpperCase()}${version.slice(1)}`;
  const { local, importLine } = mainImport(main, {
    exported: `setup${kindVersion}Webhooks`,
    qualified: `setup${groupWord(group)}${kindVersion}Webhooks`,
    specifier: importPath(MAIN_FILE, setupPath),
  });
  return { setupName: local, importLine, call: `${local}(mgr);` };
}
