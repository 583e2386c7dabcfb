import { Comment, ProjectReflection, ReflectionKind, Renderer } from 'typedoc';
import type { Application, DeclarationReflection, PageEvent, Router } from 'typedoc';
import { code, prose, table } from '../docs-reference/markdown.ts';

/** What the index page says besides the exports: where it comes from, and what to read next. */
export interface IndexPageText {
  readonly title: string;
  readonly note: string;
  readonly introduction: string;
  readonly readNext: string;
}

/** An export's summary: the first paragraph of its doc comment (or its signature's), on one line. */
function summaryOf(reflection: DeclarationReflection): string {
  const comment: Comment | undefined = reflection.comment ?? reflection.signatures?.[0]?.comment;
  const text: string = Comment.combineDisplayParts(comment?.summary ?? []);
  return prose(
    text
      .split(/\n\s*\n/)[0]
      ?.replace(/\s+/g, ' ')
      .trim() ?? '',
  );
}

function exportRow(router: Router, index: ProjectReflection, reflection: DeclarationReflection): string[] {
  const kind: string = ReflectionKind.singularString(reflection.kind).toLowerCase();
  return [
    `[${code(reflection.name)}](${router.relativeUrl(index, reflection)})`,
    kind,
    summaryOf(reflection),
  ];
}

function indexPage(router: Router, project: ProjectReflection, text: IndexPageText): string {
  const concepts: string[] = (project.children ?? []).map(
    (concept: DeclarationReflection): string =>
      `## [${concept.name}](${router.relativeUrl(project, concept)})\n\n` +
      table(
        ['Export', 'Kind', 'Summary'],
        (concept.children ?? []).map((reflection) => exportRow(router, project, reflection)),
      ),
  );
  return (
    [`# ${text.title}`, text.note, text.introduction, ...concepts, `Read next: ${text.readNext}`].join(
      '\n\n',
    ) + '\n'
  );
}

/**
 * Writes the Runtime API's index page: every export, by concept, with the first paragraph of its
 * doc comment, linked to where the concept's page describes it. It replaces the Markdown theme's
 * list of modules, and runs before the VitePress theme's pass that rewrites anchors to VitePress's.
 */
export function writeIndexPage(app: Application, text: IndexPageText): void {
  app.renderer.on(
    Renderer.EVENT_END_PAGE,
    (page: PageEvent): void => {
      const router: Router | undefined = app.renderer.router;
      if (!(page.model instanceof ProjectReflection) || router === undefined) return;
      page.contents = indexPage(router, page.model, text);
    },
    100,
  );
}
