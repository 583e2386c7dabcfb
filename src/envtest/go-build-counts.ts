/**
 * What `go build -v` has done so far, read from its stderr: a `go: downloading <module>` line per
 * module fetched from the proxy, then one line per package compiled.
 */
export class GoBuildCounts {
  #modules = 0;
  #packages = 0;
  #partial = '';

  /** Counts the complete lines of a chunk of output; a line split across chunks counts once. */
  add(chunk: string): void {
    const lines = (this.#partial + chunk).split('\n');
    this.#partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('go: downloading ')) this.#modules++;
      else if (line !== '' && !line.startsWith('go: ')) this.#packages++;
    }
  }

  /** `12 modules downloaded, 340 packages compiled`; downloads are left out once there were none. */
  summary(): string {
    const packages = `${counted(this.#packages, 'package')} compiled`;
    return this.#modules === 0 ? packages : `${counted(this.#modules, 'module')} downloaded, ${packages}`;
  }
}

function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
