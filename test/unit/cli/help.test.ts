import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Command } from 'commander';
import { createProgram } from '../../../src/cli/program.ts';

/** Every command under `command`, itself included. */
function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(allCommands)];
}

/** The help of a command with each option on one line, as a terminal wide enough shows it. */
function helpOf(command: Command): string {
  command.configureHelp({ helpWidth: 1000 });
  return command.helpInformation();
}

test('no option in any help says its default twice', () => {
  for (const command of allCommands(createProgram())) {
    for (const line of helpOf(command).split('\n')) {
      assert.doesNotMatch(line, /default:.*default:/, `tsoperator ${command.name()} --help: ${line.trim()}`);
    }
  }
});

test('create api --help says once that a kind is namespaced by default', () => {
  const create = createProgram().commands.find((c) => c.name() === 'create');
  const api = create?.commands.find((c) => c.name() === 'api');
  assert.ok(api);
  const line = helpOf(api)
    .split('\n')
    .find((l) => l.trimStart().startsWith('--namespaced'));
  assert.match(line ?? '', /^ {2}--namespaced \[bool\] +the kind is namespaced \(default: true\)$/);
});
