import type { Argument, Command, Option } from 'commander';
import { code, prose, sentence, table, type Page } from './markdown.ts';

/**
 * The commands page: the program's own options, then every command and subcommand in the order
 * `--help` lists them, with its usage, arguments and options, as commander holds them.
 */
export function commandsPage(program: Command): Page {
  return {
    title: 'Commands',
    source: "the CLI's command definitions (`src/cli`)",
    sections: [
      [
        `Every command takes ${code('-h, --help')}, which prints what this page says about it.`,
        `A ${code('[bool]')} option may be given alone (true) or with a value, e.g. ${code('--namespaced=false')};`,
        `its ${code('--no-')} form is false.`,
      ].join('\n'),
      `## ${code(program.name())}`,
      commandBody(program, program.name()),
      ...program.commands.flatMap((command) => commandSections(command, [program.name()], 2)),
    ],
    readNext: '[Markers](./markers.md), what `tsoperator manifests` reads from your types.',
  };
}

function commandSections(command: Command, parents: readonly string[], depth: number): string[] {
  const path = [...parents, command.name()];
  const heading = `${'#'.repeat(Math.min(depth, 4))} ${code(path.join(' '))}`;
  return [
    heading,
    commandBody(command, path.join(' ')),
    ...command.commands.flatMap((sub) => commandSections(sub, path, depth + 1)),
  ];
}

function commandBody(command: Command, path: string): string {
  const parts = [
    prose(sentence(command.description())),
    '```text\n' + `${path} ${command.usage()}` + '\n```',
  ];
  if (command.aliases().length > 0) parts.push(`Also: ${command.aliases().map(code).join(', ')}.`);
  if (command.registeredArguments.length > 0) {
    parts.push(table(['Argument', 'Description', 'Default'], command.registeredArguments.map(argumentRow)));
  }
  const options = command.options.filter((option) => !option.hidden);
  if (options.length > 0) parts.push(table(['Option', 'Description', 'Default'], options.map(optionRow)));
  return parts.join('\n\n');
}

function argumentRow(argument: Argument): string[] {
  const name = `${argument.name()}${argument.variadic ? '...' : ''}`;
  return [
    code(argument.required ? `<${name}>` : `[${name}]`),
    prose(sentence(argument.description)),
    defaultOf(argument.defaultValue, argument.defaultValueDescription, argument.required),
  ];
}

function optionRow(option: Option): string[] {
  const choices = option.argChoices ? ` One of: ${option.argChoices.map(code).join(', ')}.` : '';
  const env = option.envVar ? ` Read from ${code(`$${option.envVar}`)} when not given.` : '';
  return [
    code(option.flags),
    prose(sentence(option.description)) + choices + env,
    defaultOf(option.defaultValue, option.defaultValueDescription, option.mandatory),
  ];
}

/** A default as `--help` shows it (its description, else its value as JSON); required says so. */
function defaultOf(value: unknown, description: string | undefined, required: boolean): string {
  if (required) return 'required';
  if (description !== undefined) return code(description);
  return value === undefined ? '' : code(JSON.stringify(value));
}
