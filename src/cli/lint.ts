import type { Command } from 'commander';
import { TsoperatorError, UsageError } from '../errors.ts';

interface LintFlags {
  format: string;
  config?: string;
}

/** `tsoperator lint`: kube-api-linter's API conventions, checked on the TypeScript types under src/api. */
export function registerLintCommand(program: Command): void {
  program
    .command('lint')
    .description(
      "check the API types under src/api against Kubernetes' API conventions (kube-api-linter's checks)",
    )
    .option('--format <format>', 'report as text, or as json on stdout (as manifests --check)', 'text')
    .option('--config <file>', 'the lint configuration (default: api-lint.yaml, when there is one)')
    .action(async (flags: LintFlags) => {
      if (flags.format !== 'text' && flags.format !== 'json')
        throw new UsageError(`--format must be text or json, not ${JSON.stringify(flags.format)}`);
      // Loaded on use: the type walker brings the TypeScript compiler.
      const lint = await import('../lint/index.ts');
      const root = process.cwd();
      const result = lint.lintApi(root, lint.readLintConfig(root, flags.config));
      for (const note of result.notes) process.stderr.write(`${note}\n`);
      const text = flags.format === 'json' ? lint.formatLintJson(result) : lint.formatLintText(result);
      process.stdout.write(text);
      const errors = lint.countOf(result, 'error');
      if (errors > 0)
        throw new TsoperatorError(
          `${errors} API convention error${errors === 1 ? '' : 's'}: fix ${errors === 1 ? 'it' : 'them'} as each fix says, ` +
            `or turn the check off in ${lint.LINT_CONFIG_FILE} (see "API conventions" in tsoperator's README)`,
        );
    });
}
