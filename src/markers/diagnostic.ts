import { TsoperatorError } from '../errors.ts';

/** Where something stands in a source file; line and column count from 1, as editors show them. */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** A problem found in the user's sources, with a stable code so docs and tests can name it. */
export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly location: SourceLocation;
}

/**
 * Diagnostic codes. TSOP1xxx: marker syntax and placement; TSOP2xxx: types the schema walker cannot
 * map or markers that do not fit the schema; TSOP3xxx: CRD assembly (names, versions, kinds).
 */
export const DiagnosticCodes = {
  unknownMarker: 'TSOP1001',
  unknownArgument: 'TSOP1002',
  invalidArgumentValue: 'TSOP1003',
  missingArgument: 'TSOP1004',
  misplacedMarker: 'TSOP1005',
  markerSyntax: 'TSOP1006',
  unknownK8sMarker: 'TSOP1007',
  markerOnWrongSchema: 'TSOP2001',
  unmappableType: 'TSOP2002',
  conflictingMarkers: 'TSOP2003',
  unresolvedType: 'TSOP2004',
  invalidMarkerValue: 'TSOP2005',
  uncheckedMarkerValue: 'TSOP2006',
  invalidCrd: 'TSOP3001',
  missingGroupVersion: 'TSOP3002',
  largeCrd: 'TSOP3003',
  serverRefused: 'TSOP3004',
} as const;

export type DiagnosticCode = (typeof DiagnosticCodes)[keyof typeof DiagnosticCodes];

/**
 * What each code means, in a sentence a user who met it can act on. Typed by `DiagnosticCode` so a
 * new code cannot be added without one; the book's list of errors is generated from this record.
 */
export const DiagnosticSummaries: Readonly<Record<DiagnosticCode, string>> = {
  TSOP1001:
    'A `+kubebuilder:` marker that no generator knows, most often a typo in its name. Markers of other namespaces are left alone.',
  TSOP1002:
    'The marker has no argument of this name, or a marker that takes one unnamed value was written with a named one.',
  TSOP1003:
    "An argument's value is not of the argument's type (text where a number is wanted, say), or a webhook marker's arguments do not make a valid webhook.",
  TSOP1004:
    'A required argument of the marker is missing, or a marker that takes a value was written without one.',
  TSOP1005:
    'A known marker stands where it has no effect, e.g. a field marker above a type; the message says where it belongs.',
  TSOP1006:
    'The marker text does not follow the marker grammar: a missing `=` or `,`, an unterminated string, or one value given to a marker that takes named arguments.',
  TSOP1007:
    "A warning: a `+k8s:` marker that CRD generation (tsoperator's or controller-gen's) does not read, so it changes nothing in the CRD: a `+k8s:validation:` tag, which Kubernetes' openapi-gen reads for built-in types, or a declarative-validation tag (`+k8s:maxLength`); its `+kubebuilder:validation:` counterpart would. The code generators' own tags (`+k8s:deepcopy-gen`, `+k8s:openapi-gen`, `+k8s:conversion-gen`, ...) are left alone.",
  TSOP2001:
    'A marker does not fit the schema of what it stands on, e.g. a string marker on a number or an `items` marker on a field that is not an array.',
  TSOP2002:
    'A TypeScript type that has no OpenAPI schema: a function, a method, an index signature, a field without a type.',
  TSOP2003:
    'Markers or types that contradict each other: a required field in a OneOf constraint, a type that refers to itself, two webhook configuration markers of one kind.',
  TSOP2004: 'A type name the generator cannot find: export the type from a file under `src/api`.',
  TSOP2005:
    "A `default` marker's value that does not validate against the schema it stands in (its type, enum, bounds, length, pattern or format, or an object's required and unknown properties), as written: the API server would refuse the CRD. It does not fill in the default's own properties' defaults before checking it, so write them out.",
  TSOP2006:
    "A warning: an `example` marker's value, or a `default` inside a map's values, that does not validate against the schema it stands in. The API server checks neither when the CRD is applied: an example only documents the field, and a default in a map's values is filled into objects that the API server then refuses.",
  TSOP3001:
    "A CRD marker's value the CRD cannot hold, or versions of a kind that make no valid CRD (no storage version, or more than one).",
  TSOP3002:
    'A kind in a folder without a `+groupName` marker: add a `groupversion-info.ts` there with `// +groupName=<group>` at its top.',
  TSOP3003:
    'A warning: a CRD too large for how it is applied. A client-side `kubectl apply -f` copies the object into its last-applied annotation, and the API server refuses it once its annotations pass 256 KiB; within 10 % of 1.5 MiB of JSON etcd is about to refuse storing it. Apply it server-side, or shorten its descriptions with `crd.maxDescLen`.',
  TSOP3004:
    "`manifests --check --server-dry-run`: the API server refused a CRD or webhook configuration in a dry run (a schema that is not structural, a CEL rule that does not compile or exceeds the cost budget, a default that does not validate). The message is the API server's own, placed at the marker that wrote the refused field.",
};

/** Renders a diagnostic the way `tsc` renders its own: `file.ts:12:5 - error TSOP1002: message`. */
export function formatDiagnostic(diagnostic: Diagnostic): string {
  const { file, line, column } = diagnostic.location;
  return `${file}:${line}:${column} - ${diagnostic.severity} ${diagnostic.code}: ${diagnostic.message}`;
}

/** Orders diagnostics by file, then position, so reports read top to bottom and never flap. */
export function compareDiagnostics(a: Pick<Diagnostic, 'location'>, b: Pick<Diagnostic, 'location'>): number {
  if (a.location.file !== b.location.file) return a.location.file < b.location.file ? -1 : 1;
  return a.location.line - b.location.line || a.location.column - b.location.column;
}

/** Thrown when generation found errors: carries all of them, its message lists them, sorted. */
export class DiagnosticsError extends TsoperatorError {
  readonly diagnostics: readonly Diagnostic[];

  constructor(diagnostics: readonly Diagnostic[]) {
    const sorted = [...diagnostics].sort(compareDiagnostics);
    const count = sorted.filter((d) => d.severity === 'error').length;
    super(`${sorted.map(formatDiagnostic).join('\n')}\n\nFound ${count} error${count === 1 ? '' : 's'}.`);
    this.name = 'DiagnosticsError';
    this.diagnostics = sorted;
  }
}
