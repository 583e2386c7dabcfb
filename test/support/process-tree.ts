import { readdir, readFile } from 'node:fs/promises';

/**
 * The innermost process under `pid` (a child, a grandchild...) whose command line contains `text`,
 * read from /proc (Linux): the program a wrapper such as `npm start` runs, past the shell that
 * runs it, for signalling it as a container runtime signals its process.
 */
export async function findDescendant(pid: number, text: string): Promise<number | undefined> {
  const parents = await parentsOf();
  const isBelow = (child: number, ancestor: number): boolean => {
    for (let p = parents.get(child); p !== undefined; p = parents.get(p)) if (p === ancestor) return true;
    return false;
  };
  const matches: number[] = [];
  for (const [child] of parents) {
    if (!isBelow(child, pid)) continue;
    const cmdline = await readFile(`/proc/${child}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.replaceAll('\0', ' ').includes(text)) matches.push(child);
  }
  return matches.find((m) => !matches.some((other) => isBelow(other, m)));
}

/** Each running process's parent. */
async function parentsOf(): Promise<Map<number, number>> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // The command name, in parentheses, may hold spaces: the fields after it are fixed.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (Number.isInteger(ppid)) parents.set(Number(entry), ppid);
  }
  return parents;
}
