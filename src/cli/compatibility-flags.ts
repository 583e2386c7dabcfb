import type { BaselineRequest } from '../gen/compat/index.ts';
import { UsageError } from '../errors.ts';

/** The flags of `manifests --check` that choose the compatibility baseline and report. */
export interface CompatibilityFlags {
  check: boolean;
  against?: string;
  againstFile?: string;
  againstCluster: boolean;
  compatConfig?: string;
  format: string;
}

/** The baseline the flags ask for: one of them at most; the default branch's when none. */
export function baselineRequest(flags: CompatibilityFlags): BaselineRequest {
  const chosen = [
    flags.against === undefined ? undefined : '--against',
    flags.againstFile === undefined ? undefined : '--against-file',
    flags.againstCluster ? '--against-cluster' : undefined,
  ].filter((flag) => flag !== undefined);
  if (chosen.length > 1)
    throw new UsageError(`${chosen.join(' and ')} cannot be used together: pick one baseline`);
  if (chosen.length > 0 && !flags.check) throw new UsageError(`${chosen[0]} needs --check`);
  if (flags.againstFile !== undefined) return { kind: 'file', path: flags.againstFile };
  if (flags.againstCluster) return { kind: 'cluster' };
  return flags.against === undefined ? { kind: 'git' } : { kind: 'git', ref: flags.against };
}

/** `--format`: text (one line per finding) or json. */
export function reportFormat(flags: CompatibilityFlags): 'text' | 'json' {
  if (flags.format === 'text' || flags.format === 'json') return flags.format;
  throw new UsageError(`--format is "${flags.format}"; use text or json`);
}
