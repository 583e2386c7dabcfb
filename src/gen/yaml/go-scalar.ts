/**
 * How go-yaml v2 writes a string scalar, which decides the bytes of every Kubernetes manifest
 * written by Go tools: double-quoted when it would read back as another type, plain when it reads
 * back as the same string, single-quoted otherwise, a literal block (`|-`) for multi-line text.
 */
export type ScalarStyle = 'plain' | 'single' | 'double' | 'literal';

/** Plain scalars YAML 1.1 would read as something other than a string. */
const NON_STRING =
  /^(?:~|null|Null|NULL|y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|[-+]?(?:0b[01_]+|0[0-7_]+|0x[0-9a-fA-F_]+|(?:0|[1-9][0-9_]*))|[-+]?(?:[0-9][0-9_]*)?\.[0-9.]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|[-+]?[0-9]+(?:\.[0-9]*)?[eE][-+]?[0-9]+|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+|\d{4}-\d\d?-\d\d?(?:(?:[Tt]|[ \t]+)\d\d?:\d\d:\d\d(?:\.\d*)?(?:[ \t]*(?:Z|[-+]\d\d?(?::\d\d)?))?)?)$/;

export function scalarStyle(value: string): ScalarStyle {
  if (
    // go-yaml takes no character past U+FFFF for printable: an emoji makes the text double-quoted.
    /[^\n\t\x20-\x7e\u0085\u00a0-\ud7ff\ue000-\ufffd]/u.test(value) ||
    value.includes('\r')
  ) {
    return 'double';
  }
  // A space before a line break, or at the very end, cannot be written in a literal block.
  if (value.includes('\n')) return / \n/.test(value) || /[ \t]$/.test(value) ? 'double' : 'literal';
  // go-yaml double-quotes text that would read back as another type (`""`, `"true"`, `"8080"`).
  if (value === '' || NON_STRING.test(value)) return 'double';
  return plainAllowed(value) ? 'plain' : 'single';
}

function plainAllowed(value: string): boolean {
  if (value.startsWith(' ') || value.endsWith(' ') || value.startsWith('\t') || value.endsWith('\t'))
    return false;
  if (value.startsWith('---') || value.startsWith('...')) return false;
  if (/^[#,[\]{}&*!|>'"%@`]/.test(value)) return false;
  if (/^[-?:](?:[ \t]|$)/.test(value)) return false;
  return !/:(?:[ \t]|$)|[ \t]#/.test(value);
}
