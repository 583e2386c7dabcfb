import { importPath } from './api-paths.ts';

/** The main.ts of every project, where controllers are imported and registered. */
export const MAIN_FILE = 'src/main.ts';

/** The lines `create api` adds to main.ts for a kind's controller, which `delete api` takes out. */
export interface ControllerRegistration {
  /** `CaptainReconciler`: the class the controller file exports. */
  readonly className: string;
  /** At `+tsoperator:scaffold:imports`. */
  readonly importLine: string;
  /** At `+tsoperator:scaffold:controllers`. */
  readonly registration: string;
  /** How any form of the registration starts, an older tsoperator's included. */
  readonly registrationStart: string;
}

/** The main.ts lines of the controller of `kind`, written at `controllerPath`. */
export function controllerRegistration(kind: string, controllerPath: string): ControllerRegistration {
  const className = `${kind}Reconciler`;
  return {
    className,
    importLine: `import { ${className} } from '${importPath(MAIN_FILE, controllerPath)}';`,
    registration: `new ${className}(mgr.client, mgr.events).setup(mgr);`,
    registrationStart: `new ${className}(`,
  };
}
