/**
 * How a marker's text introduces its arguments after the name: not at all (`+optional`), with `=`
 * (`+kubebuilder:validation:Minimum=1`, `+kubebuilder:printcolumn:name=...`), or with `:=`
 * (`+kubebuilder:default:=Allow`, the spelling of Kubebuilder's tutorials).
 */
export type MarkerSeparator = '' | '=' | ':=';

/** The name a marker is looked up by, and the text of its arguments, split as controller-gen splits them. */
export interface MarkerName {
  /**
   * Everything before the first `=`, e.g. `kubebuilder:validation:Minimum` or
   * `kubebuilder:printcolumn:name`; without the colon of a `:=`.
   */
  readonly full: string;
  /**
   * `full` without its last `:segment`, the name of a marker whose first argument follows it; `full`
   * itself after a `:=`, whose empty segment names no argument.
   */
  readonly short: string;
  /** The text after the first `=`, or '' for a marker without one. */
  readonly rest: string;
  /** Offset of `rest` in the marker text (after the `+`). */
  readonly restOffset: number;
  readonly separator: MarkerSeparator;
  /** Offset of the separator in the marker text: where the name ends. */
  readonly separatorOffset: number;
}

/**
 * Splits `kubebuilder:rbac:groups=apps,verbs=get` into names and arguments (text without the `+`).
 * controller-gen splits at the first `=` and drops the last `:segment` to find a marker's name, so
 * after `name:=` (an empty last segment) what follows is the marker's unnamed argument, as after
 * `name=`; this split says so once, for every marker.
 */
export function splitMarkerName(text: string): MarkerName {
  const equals = text.indexOf('=');
  if (equals < 0) {
    const end = text.length;
    return { full: text, short: text, rest: '', restOffset: end, separator: '', separatorOffset: end };
  }
  const before = text.slice(0, equals);
  const rest = text.slice(equals + 1);
  const restOffset = equals + 1;
  const named = before.trimEnd();
  if (named.endsWith(':')) {
    const full = named.slice(0, -1);
    return { full, short: full, rest, restOffset, separator: ':=', separatorOffset: full.length };
  }
  const colon = before.lastIndexOf(':');
  const short = colon < 0 ? before : before.slice(0, colon);
  return { full: before, short, rest, restOffset, separator: '=', separatorOffset: equals };
}

/**
 * A marker's text (from `+` on) with `name:=value` written `name=value`, so that the two spellings
 * of one marker compare equal, as kube-api-linter compares them.
 */
export function canonicalMarkerText(text: string): string {
  const name = splitMarkerName(text.slice(1));
  return name.separator === ':=' ? `+${name.full}=${name.rest}` : text;
}
