/** How main.ts imports one export of a project file, and the name it calls it by. */
export interface MainImport {
  /** The name main.ts uses: the export's own, or its group-qualified alias. */
  readonly local: string;
  /** At `+tsoperator:scaffold:imports`. */
  readonly importLine: string;
}

/** An export main.ts imports from `specifier`, and the alias it takes when its name is taken. */
export interface MainExport {
  /** `CaptainReconciler`. */
  readonly exported: string;
  /** `ShipCaptainReconciler`: the name with the kind's group in it. */
  readonly qualified: string;
  /** `./controllers/ship/captain.controller.ts`. */
  readonly specifier: string;
}

/**
 * The import of `target` in the main.ts whose text is `main`: as it is there when main.ts already
 * has it; else under its own name, unless main.ts binds that name already (a kind of the same name
 * in another group), then under its group-qualified alias, as Kubebuilder's main.go aliases each
 * import by its group and version. Both `create` and `delete` read main.ts this way, so they agree.
 */
export function mainImport(main: string, target: MainExport): MainImport {
  const plain = { local: target.exported, importLine: importLine(target.exported, target.specifier) };
  const aliased = {
    local: target.qualified,
    importLine: importLine(`${target.exported} as ${target.qualified}`, target.specifier),
  };
  const lines = new Set(main.split('\n').map((line) => line.trim()));
  if (lines.has(aliased.importLine)) return aliased;
  if (lines.has(plain.importLine)) return plain;
  return bindsName(main, target.exported) ? aliased : plain;
}

/**
 * Whether `text` names the identifier `name` other than as the export an alias renames
 * (`import { CaptainReconciler as ShipCaptainReconciler }` binds only the alias).
 */
export function bindsName(text: string, name: string): boolean {
  return new RegExp(`\\b${name}\\b(?!\\s+as\\b)`).test(text);
}

/** `Ship`, `CertManager`: a group as the start of an identifier (`Core` for the core group). */
export function groupWord(group: string): string {
  const words = group.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  const joined = words.map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`).join('');
  return joined === '' ? 'Core' : joined;
}

function importLine(names: string, specifier: string): string {
  return `import { ${names} } from '${specifier}';`;
}
