import { describeArgumentType } from '../../src/markers/argument-type.ts';
import type { ArgumentSpec, MarkerDefinition, MarkerTarget } from '../../src/markers/index.ts';
import { compareText } from './compare-text.ts';
import { code, prose, sentence, table, type Page } from './markdown.ts';

/** How a target reads in the page. */
const TARGET_NAMES: Readonly<Record<MarkerTarget, string>> = {
  package: 'package',
  type: 'type',
  field: 'field',
};

/**
 * The markers page: every definition of `markers`, by category, then name. The definitions come
 * from the registry the manifests generators share, so the page lists what the parser accepts.
 */
export function markersPage(markers: readonly MarkerDefinition[]): Page {
  const byCategory = groupBy(markers, (definition) => definition.category);
  const categories = [...byCategory.keys()].sort(compareText);
  return {
    title: 'Markers',
    source: "the marker registry (each marker's definition in `src/markers/definitions`)",
    sections: [
      intro(),
      ...categories.flatMap((category) => categorySections(category, byCategory.get(category) ?? [])),
    ],
    readNext: '[Errors](./errors.md), the diagnostics a misspelt or misplaced marker gives.',
  };
}

function intro(): string {
  return [
    'A marker is a comment line that starts with `+`, as in Kubebuilder: tsoperator reads the same',
    'markers as controller-gen. A marker stands on a **package** (the comments of an API version',
    "folder's `groupversion-info.ts`), a **type** (the doc comment of an interface or type alias) or a",
    '**field** (the doc comment of a property).',
    '',
    'A marker takes no argument (`+kubebuilder:subresource:status`), one unnamed argument, or named',
    'arguments. A marker with one unnamed argument takes both spellings, `name=value` and',
    '`name:=value`, as controller-gen: `+kubebuilder:validation:Minimum=0` and',
    '`+kubebuilder:validation:Minimum:=0` are the same marker. Named arguments are written',
    '`name:arg=value,...`, e.g. `+kubebuilder:printcolumn:name=Age,type=date,JSONPath=.metadata.creationTimestamp`.',
    'A list is `a;b;c` or `{a,b,c}`, a map `{key: value,...}`; a string may be quoted with `"` or backticks.',
  ].join('\n');
}

function categorySections(category: string, definitions: readonly MarkerDefinition[]): string[] {
  const byName = groupBy(definitions, (definition) => definition.name);
  const names = [...byName.keys()].sort(compareText);
  return [`## ${prose(category)}`, ...names.map((name) => markerSection(name, byName.get(name) ?? []))];
}

/** One marker name; a name declared for several targets (a field's and a package's) lists each. */
function markerSection(name: string, definitions: readonly MarkerDefinition[]): string {
  const sorted = [...definitions].sort((a, b) => compareText(targetsOf(a), targetsOf(b)));
  return [`### ${code(`+${name}`)}`, ...sorted.map(definitionBlock)].join('\n\n');
}

function definitionBlock(definition: MarkerDefinition): string {
  const lines = [
    prose(sentence(definition.help)),
    [`- Stands on: ${targetsOf(definition)}`, `- Written: ${spellings(definition)}`].join('\n'),
  ];
  const rows = argumentRows(definition);
  // Most arguments say what they are by their name alone: a Help column only when one says more.
  const helped = rows.some((row) => row[3] !== '');
  const headers = ['Argument', 'Type', 'Optional', ...(helped ? ['Help'] : [])];
  if (rows.length > 0) lines.push(table(headers, helped ? rows : rows.map((row) => row.slice(0, 3))));
  return lines.join('\n\n');
}

function targetsOf(definition: MarkerDefinition): string {
  return definition.targets.map((target) => TARGET_NAMES[target]).join(', ');
}

/** How a user writes the marker, with a placeholder for what its arguments take. */
function spellings(definition: MarkerDefinition): string {
  const marker = `+${definition.name}`;
  const args = definition.arguments;
  if (args.kind === 'none') return code(marker);
  if (args.kind === 'fields') return code(`${marker}:<argument>=<value>,...`);
  const value = `<${describeArgumentType(args.argument.type)}>`;
  return `${code(`${marker}=${value}`)} or ${code(`${marker}:=${value}`)}`;
}

function argumentRows(definition: MarkerDefinition): string[][] {
  const args = definition.arguments;
  if (args.kind === 'none') return [];
  if (args.kind === 'value') return [argumentRow('(value)', args.argument)];
  return Object.entries(args.fields).map(([name, spec]) => argumentRow(code(name), spec));
}

function argumentRow(name: string, spec: ArgumentSpec): string[] {
  const optional = !spec.optional
    ? 'no'
    : spec.default === undefined
      ? 'yes'
      : `yes, default ${code(JSON.stringify(spec.default))}`;
  return [name, code(describeArgumentType(spec.type)), optional, spec.help ? prose(sentence(spec.help)) : ''];
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
