import type { MarkerDefinition } from './definition.ts';
import type { DiagnosticCode } from './diagnostic.ts';
import { DiagnosticCodes } from './diagnostic.ts';
import type { MarkerName } from './marker-name.ts';

/** Where a marker's arguments begin in its text (after the `+`), or why its name cannot be followed so. */
export type ArgumentStart =
  | { readonly kind: 'start'; readonly offset: number }
  | {
      readonly kind: 'error';
      readonly code: DiagnosticCode;
      readonly message: string;
      readonly offset: number;
    };

/**
 * The rules of what may stand between a marker's name and its arguments, the same for every marker:
 * an unnamed argument (or none, for a flag) follows `=` or `:=`; named arguments follow `:`, the
 * first one's name written as the name's last segment. `short` says the registry found the marker
 * by its name without that segment. controller-gen refuses the other combinations but one: it drops
 * a segment written before an unnamed argument (`+kubebuilder:default:foo=bar` defaults to "bar"),
 * which is refused here rather than guessed at.
 */
export function argumentStart(definition: MarkerDefinition, name: MarkerName, short: boolean): ArgumentStart {
  const shape = definition.arguments;
  if (shape.kind === 'fields')
    return namedArgumentsStart(definition.name, Object.keys(shape.fields), name, short);
  if (!short) return { kind: 'start', offset: name.restOffset };
  const segment = name.full.slice(name.short.length + 1);
  const spelling =
    shape.kind === 'none'
      ? `takes no arguments: write +${definition.name}`
      : `takes one unnamed value: write +${definition.name}=<value> (or :=<value>)`;
  return {
    kind: 'error',
    code: DiagnosticCodes.unknownArgument,
    message: `unknown argument ${JSON.stringify(segment)}: marker +${definition.name} ${spelling}`,
    offset: name.short.length + 1,
  };
}

function namedArgumentsStart(
  marker: string,
  fields: readonly string[],
  name: MarkerName,
  short: boolean,
): ArgumentStart {
  // Found by its short name, the marker's last segment is the name of its first argument.
  if (short) return { kind: 'start', offset: name.short.length + 1 };
  if (name.separator === '') return { kind: 'start', offset: name.restOffset };
  const first = fields[0] ?? '<argument>';
  return {
    kind: 'error',
    code: DiagnosticCodes.markerSyntax,
    message:
      `marker +${marker} takes named arguments (${fields.join(', ')}), not one value after ` +
      `"${name.separator}": write +${marker}:${first}=<value>,...`,
    offset: name.separatorOffset,
  };
}
