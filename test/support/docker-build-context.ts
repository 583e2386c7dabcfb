/**
 * Whether `path` (relative to the context's root) is sent to a Docker build whose context has
 * this `.dockerignore`, by Docker's rules: patterns are read in order, a pattern matches a path or
 * any of its parent folders, the last match decides, and `!` lets back in what it matches. `*`
 * matches within one path segment, `**` across segments, `?` one character.
 */
export function inBuildContext(dockerignore: string, path: string): boolean {
  let included = true;
  for (const line of dockerignore.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const negated = trimmed.startsWith('!');
    const pattern = patternRegExp(negated ? trimmed.slice(1) : trimmed);
    if (pathAndParents(path).some((p) => pattern.test(p))) included = negated;
  }
  return included;
}

/** The sources of a Dockerfile's COPY and ADD instructions that read the build context. */
export function contextSources(dockerfile: string): string[] {
  const sources: string[] = [];
  for (const line of dockerfile.split('\n')) {
    const words = line.trim().split(/\s+/);
    const instruction = words[0]?.toUpperCase();
    if (instruction !== 'COPY' && instruction !== 'ADD') continue;
    const args = words.slice(1);
    if (args.some((arg) => arg.startsWith('--from='))) continue;
    const paths = args.filter((arg) => !arg.startsWith('--'));
    sources.push(...paths.slice(0, -1));
  }
  return sources;
}

function pathAndParents(path: string): string[] {
  const segments = path.replace(/\/+$/, '').split('/');
  return segments.map((_, i) => segments.slice(0, i + 1).join('/'));
}

function patternRegExp(pattern: string): RegExp {
  const cleaned = pattern.replace(/^\/+|\/+$/g, '');
  let source = '';
  for (let i = 0; i < cleaned.length; i++) {
    const c = cleaned[i] as string;
    if (c === '*' && cleaned[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
