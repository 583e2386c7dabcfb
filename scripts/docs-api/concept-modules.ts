import { Comment, Converter, DeclarationReflection, ReflectionKind } from 'typedoc';
import type { Application, Context, ProjectReflection } from 'typedoc';

const RUNTIME = 'src/runtime/';

/** The runtime's folder a declaration lives in, which is its concept: cache, client, webhook, ... */
function conceptOf(project: ProjectReflection, reflection: DeclarationReflection): string {
  const path: string = project.getSymbolIdFromReflection(reflection)?.packagePath ?? '';
  const concept: string | undefined = path.startsWith(RUNTIME)
    ? path.slice(RUNTIME.length).split('/')[0]
    : undefined;
  if (concept === undefined) throw new Error(`${reflection.name} is declared outside ${RUNTIME}: ${path}`);
  return concept;
}

/**
 * Regroups the entry point's exports into one module per concept, before TypeDoc resolves links
 * and groups members, so that the Markdown theme writes one page per concept: a reader looking for
 * the cache finds it on one page, and the book has some twenty pages rather than two hundred.
 * Each module's comment is what the entry point's comments say about the concept.
 */
export function groupByConcept(app: Application, summaries: ReadonlyMap<string, readonly string[]>): void {
  app.converter.on(
    Converter.EVENT_RESOLVE_BEGIN,
    (context: Context): void => {
      const project: ProjectReflection = context.project;
      const modules = new Map<string, DeclarationReflection>();
      for (const child of [...(project.children ?? [])]) {
        const concept: string = conceptOf(project, child);
        let module: DeclarationReflection | undefined = modules.get(concept);
        if (module === undefined) {
          module = new DeclarationReflection(concept, ReflectionKind.Module, project);
          const lines: readonly string[] = summaries.get(concept) ?? [];
          module.comment = new Comment([{ kind: 'text', text: lines.map((s) => `- ${s}`).join('\n') }]);
          project.registerReflection(module, undefined, undefined);
          modules.set(concept, module);
        }
        project.removeChild(child);
        child.parent = module;
        module.addChild(child);
      }
      const byName = ([a]: [string, unknown], [b]: [string, unknown]): number => a.localeCompare(b);
      for (const [, module] of [...modules].sort(byName)) project.addChild(module);
    },
    // Before TypeDoc's own resolve-begin plugins, which expect the final tree.
    1e5,
  );
}
