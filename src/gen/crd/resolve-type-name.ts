import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { InterfaceDeclaration, SourceFile, TypeAliasDeclaration } from 'ts-morph';

/** What a type name in an API file refers to. */
export type TypeNameResolution =
  | { readonly kind: 'declaration'; readonly declaration: InterfaceDeclaration | TypeAliasDeclaration }
  /** A type of the tsoperator runtime (`int32`, `Quantity`, `ObjectMeta`, ...), by its exported name. */
  | { readonly kind: 'runtime'; readonly name: string }
  /** A type imported from a package, e.g. `V1PodTemplateSpec` from `@kubernetes/client-node`. */
  | { readonly kind: 'package'; readonly module: string; readonly name: string }
  | { readonly kind: 'missing' };

/** Runtime modules as a generated project imports them: its own copy, or the package. */
const RUNTIME_MODULE = /(^|\/)runtime(\/index|\/api\/types)?(\.[jt]s)?$|^tsoperator(\/runtime)?$/;

/**
 * Resolves `name` (or `namespace.name`) as written in `file`, by syntax alone: local declarations,
 * then imports, following relative imports and re-exports. Syntax is enough for API types and keeps
 * the generator from type-checking @kubernetes/client-node on every run.
 */
export function resolveTypeName(file: SourceFile, name: string): TypeNameResolution {
  const [head = '', ...rest] = name.split('.');
  if (rest.length > 0) return resolveQualified(file, head, rest.join('.'));
  const local = file.getInterface(name) ?? file.getTypeAlias(name);
  if (local) return { kind: 'declaration', declaration: local };
  return resolveImported(file, name);
}

function resolveQualified(file: SourceFile, namespace: string, name: string): TypeNameResolution {
  for (const importDeclaration of file.getImportDeclarations()) {
    if (importDeclaration.getNamespaceImport()?.getText() !== namespace) continue;
    return resolveInModule(file, importDeclaration.getModuleSpecifierValue(), name);
  }
  return { kind: 'missing' };
}

function resolveImported(file: SourceFile, name: string): TypeNameResolution {
  for (const importDeclaration of file.getImportDeclarations()) {
    const named = importDeclaration
      .getNamedImports()
      .find((n) => (n.getAliasNode()?.getText() ?? n.getName()) === name);
    if (named) return resolveInModule(file, importDeclaration.getModuleSpecifierValue(), named.getName());
  }
  return { kind: 'missing' };
}

function resolveInModule(from: SourceFile, module: string, name: string): TypeNameResolution {
  if (RUNTIME_MODULE.test(module)) return { kind: 'runtime', name };
  if (!module.startsWith('.')) return { kind: 'package', module, name };
  const target = loadRelative(from, module);
  return target ? resolveExported(target, name, new Set()) : { kind: 'missing' };
}

function resolveExported(file: SourceFile, name: string, seen: Set<SourceFile>): TypeNameResolution {
  if (seen.has(file)) return { kind: 'missing' };
  seen.add(file);
  const local = file.getInterface(name) ?? file.getTypeAlias(name);
  if (local?.isExported()) return { kind: 'declaration', declaration: local };
  for (const exportDeclaration of file.getExportDeclarations()) {
    const module = exportDeclaration.getModuleSpecifierValue();
    if (module === undefined) continue;
    const specifier = exportDeclaration
      .getNamedExports()
      .find((e) => (e.getAliasNode()?.getText() ?? e.getName()) === name);
    if (!specifier && exportDeclaration.getNamedExports().length > 0) continue;
    const original = specifier?.getName() ?? name;
    if (!module.startsWith('.')) return resolveInModule(file, module, original);
    const target = loadRelative(file, module);
    const found = target ? resolveExported(target, original, seen) : undefined;
    if (found && found.kind !== 'missing') return found;
  }
  return { kind: 'missing' };
}

function loadRelative(from: SourceFile, module: string): SourceFile | undefined {
  const base = resolve(dirname(from.getFilePath()), module);
  const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}/index.ts`];
  const path = candidates.find((candidate) => candidate.endsWith('.ts') && existsSync(candidate));
  if (!path) return undefined;
  const project = from.getProject();
  return project.getSourceFile(path) ?? project.addSourceFileAtPath(path);
}
