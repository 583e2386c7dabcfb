import { importPath } from './api-paths.ts';
import { groupWord, mainImport } from './main-import.ts';

/** The main.ts of every project, where controllers are imported and registered. */
export const MAIN_FILE = 'src/main.ts';

/** The lines `create api` adds to main.ts for a kind's controller, which `delete api` takes out. */
export interface ControllerRegistration {
  /** `CaptainReconciler`, or `ShipCaptainReconciler` beside a Captain of another group: main.ts's name of the class. */
  readonly className: string;
  /** At `+tsoperator:scaffold:imports`. */
  readonly importLine: string;
  /** At `+tsoperator:scaffold:controllers`. */
  readonly registration: string;
  /** How any form of the registration starts, an older tsoperator's included. */
  readonly registrationStart: string;
}

/**
 * The main.ts lines of the controller of `kind` in `group`, written at `controllerPath`, in the
 * main.ts whose text is `main` (see mainImport for when the class is imported under an alias).
 */
export function controllerRegistration(
  resource: { readonly group: string; readonly kind: string },
  controllerPath: string,
  main: string,
): ControllerRegistration {
  const exported = `${resource.kind}Reconciler`;
  const { local, importLine } = mainImport(main, {
    exported,
    qualified: `${groupWord(resource.group)}${exported}`,
    specifier: importPath(MAIN_FILE, controllerPath),
  });
  return {
    className: local,
    importLine,
    registration: `new ${local}(mgr.client, mgr.events).setup(mgr);`,
    registrationStart: `new ${local}(`,
  };
}
