import type { DeclarationReflection, ProjectReflection } from 'typedoc';

/**
 * The exports, by concept, whose declaration has no doc comment (a function's may stand on its
 * signature). Members are not asked for one: an interface's comment often says what its methods do
 * better than a line above each would.
 */
export function undocumentedExports(project: ProjectReflection): string[] {
  return (project.children ?? []).flatMap((concept: DeclarationReflection): string[] =>
    (concept.children ?? [])
      .filter((reflection) => !reflection.hasComment() && !reflection.signatures?.some((s) => s.hasComment()))
      .map((reflection) => `${concept.name}: ${reflection.name}`),
  );
}
