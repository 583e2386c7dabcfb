/**
 * Orders mapping keys as go-yaml v2 does when Kubernetes tools write YAML: character by character,
 * letters after other characters, and runs of digits compared as numbers (`v2` before `v10`).
 */
export function compareYamlKeys(a: string, b: string): number {
  // Manifest keys are ASCII identifiers; compare those by char code, without splitting strings.
  if (PLAIN_ASCII.test(a) && PLAIN_ASCII.test(b)) return compareAsciiLetters(a, b);
  const ar = [...a];
  const br = [...b];
  for (let i = 0; i < ar.length && i < br.length; i++) {
    const ac = ar[i] ?? '';
    const bc = br[i] ?? '';
    if (ac === bc) continue;
    const al = isLetter(ac);
    const bl = isLetter(bc);
    if (al && bl) return codePoint(ac) - codePoint(bc);
    if (al || bl) return al ? 1 : -1;
    return compareDigitRuns(ar, br, i);
  }
  return ar.length - br.length;
}

/** Keys of ASCII letters only: the common case, where the order is char codes then length. */
const PLAIN_ASCII = /^[A-Za-z]*$/;

function compareAsciiLetters(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const difference = a.charCodeAt(i) - b.charCodeAt(i);
    if (difference !== 0) return difference;
  }
  return a.length - b.length;
}

function compareDigitRuns(ar: readonly string[], br: readonly string[], i: number): number {
  let an = 0;
  let bn = 0;
  if (ar[i] === '0' || br[i] === '0') {
    for (let j = i - 1; j >= 0 && isDigit(ar[j] ?? ''); j--) {
      if (ar[j] !== '0') {
        an = 1;
        bn = 1;
        break;
      }
    }
  }
  let ai = i;
  let bi = i;
  for (; ai < ar.length && isDigit(ar[ai] ?? ''); ai++) an = an * 10 + Number(ar[ai]);
  for (; bi < br.length && isDigit(br[bi] ?? ''); bi++) bn = bn * 10 + Number(br[bi]);
  if (an !== bn) return an - bn;
  if (ai !== bi) return ai - bi;
  return codePoint(ar[i] ?? '') - codePoint(br[i] ?? '');
}

function isLetter(char: string): boolean {
  return /\p{L}/u.test(char);
}

function isDigit(char: string): boolean {
  return /\p{Nd}/u.test(char);
}

function codePoint(char: string): number {
  return char.codePointAt(0) ?? 0;
}
