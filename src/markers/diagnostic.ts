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
  markerOnWrongSchema: 'TSOP2001',
  unmappableType: 'TSOP2002',
  conflictingMarkers: 'TSOP2003',
  unresolvedType: 'TSOP2004',
  invalidCrd: 'TSOP3001',
  missingGroupVersion: 'TSOP3002',
} as const;

export type DiagnosticCode = (typeof DiagnosticCodes)[keyof typeof DiagnosticCodes];

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
