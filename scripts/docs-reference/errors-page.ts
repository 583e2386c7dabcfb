import {
  DiagnosticCodes,
  DiagnosticSummaries,
  formatDiagnostic,
  parseMarker,
  type DiagnosticCode,
  type MarkerRegistry,
} from '../../src/markers/index.ts';
import { code, prose, type Page } from './markdown.ts';

/** The errors page: every diagnostic code, with its name in the code and what it means. */
export function errorsPage(registry: MarkerRegistry): Page {
  const entries = Object.entries(DiagnosticCodes) as [string, DiagnosticCode][];
  const sorted = entries.sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    title: 'Errors',
    source: 'the diagnostic codes (`src/markers/diagnostic.ts`)',
    sections: [intro(registry), ...sorted.map(([name, diagnosticCode]) => codeSection(name, diagnosticCode))],
    readNext: '[Markers](./markers.md), every marker with where it may stand and what it takes.',
  };
}

/** An API file with a marker whose value is not a number, as the page's example. */
const EXAMPLE_FILE = 'src/api/v1/memcached.types.ts';
const EXAMPLE_LINES = [
  'export interface MemcachedSpec {',
  '  // +kubebuilder:validation:Minimum=abc',
  '  replicas?: int32;',
  '}',
];

function intro(registry: MarkerRegistry): string {
  return [
    '`tsoperator manifests` reads every type and marker before it writes anything, and lists all the',
    'problems it found at once, each with its place and a stable code, the way `tsc` prints its own.',
    `A ${code(EXAMPLE_FILE)} that starts`,
    '',
    '```ts',
    ...EXAMPLE_LINES,
    '```',
    '',
    'gives',
    '',
    '```text',
    exampleDiagnostic(registry),
    '```',
  ].join('\n');
}

/** What the marker parser says about the example's marker, so the example stays true. */
function exampleDiagnostic(registry: MarkerRegistry): string {
  const index = EXAMPLE_LINES.findIndex((line) => line.includes('// +'));
  const line = EXAMPLE_LINES[index] ?? '';
  const plus = line.indexOf('+');
  const result = parseMarker(line.slice(plus + 1), 'field', registry);
  if (result.kind !== 'error') throw new Error(`the example marker ${line.trim()} parses without error`);
  return formatDiagnostic({
    code: result.code,
    severity: 'error',
    message: result.message,
    // Columns count from 1; the parser's offset counts from the character after the `+`.
    location: { file: EXAMPLE_FILE, line: index + 1, column: plus + 2 + result.offset },
  });
}

function codeSection(name: string, diagnosticCode: DiagnosticCode): string {
  return [`## ${diagnosticCode}`, `${code(name)}: ${prose(DiagnosticSummaries[diagnosticCode])}`].join(
    '\n\n',
  );
}
