/**
 * `text` broken into lines of at most `width` characters at spaces (a longer word keeps its own
 * line): Prettier leaves comments alone, so generated doc comments are wrapped when written.
 *
 * @example
 * ```ts
 * wrapWords('one two three', 7); // ['one two', 'three']
 * ```
 */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter((w) => w !== '')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}
