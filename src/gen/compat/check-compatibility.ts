import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CRD_BASES_DIR } from '../crd/crd-files.ts';
import type { ManifestFile } from '../manifest-generator.ts';
import { PROJECT_FILE, parseProjectFile } from '../../project/project-file.ts';
import { qualifiedGroup } from '../../project/project-config.ts';
import { clusterBaseline } from './cluster-baseline.ts';
import { loadCompatConfig } from './compat-config.ts';
import type { Baseline, ComparedCrd } from './compared-crd.ts';
import { compareCrdSets } from './compare-crd-sets.ts';
import { compareCrds } from './compare-crds.ts';
import { crdsInYaml } from './crds-in-yaml.ts';
import { fileBaseline } from './file-baseline.ts';
import { compareFindings, type Finding } from './finding.ts';
import { gitBaseline } from './git-baseline.ts';

/** What the generated CRDs are compared with (`--against`, `--against-file`, `--against-cluster`). */
export type BaselineRequest =
  | { readonly kind: 'git'; readonly ref?: string }
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'cluster'; readonly env?: NodeJS.ProcessEnv };

export interface CompatibilityOptions {
  readonly root: string;
  /** The generated manifests; the CRDs among them are checked. */
  readonly files: readonly ManifestFile[];
  readonly baseline: BaselineRequest;
  /** A crdify-format config file (`--compat-config`); default: crdify.yaml at the root, if there. */
  readonly configPath?: string;
}

export interface CompatibilityResult {
  /** Where the baseline came from; undefined when none was found. */
  readonly baseline?: string;
  /** Why nothing was checked, when no baseline was found. */
  readonly skipped?: string;
  /** The CRDs that both sides have, which were compared. */
  readonly compared: readonly string[];
  readonly findings: readonly Finding[];
}

/**
 * Compares each generated CRD with the baseline's CRD of the same name; a CRD the baseline lacks
 * is new and breaks nothing, one the generated CRDs lack is gone (crdRemoval).
 */
export async function checkCompatibility(options: CompatibilityOptions): Promise<CompatibilityResult> {
  const config = loadCompatConfig(options.root, options.configPath);
  const generated = options.files
    .filter((f) => f.path.startsWith(`${CRD_BASES_DIR}/`))
    .flatMap((f) => crdsInYaml(f.content, f.path));
  const baseline = await loadBaseline(options, generated);
  if ('missing' in baseline) return { skipped: baseline.missing, compared: [], findings: [] };
  const webhooks = conversionWebhookCrds(options.root);
  const pairs = generated.flatMap((next) => {
    const old = baseline.crds.find((c) => c.metadata.name === next.metadata.name);
    return old ? [{ old, next }] : [];
  });
  const findings = [
    ...compareCrdSets(baseline.crds, generated, config),
    ...pairs.flatMap(({ old, next }) => compareCrds(old, next, config, webhooks.has(next.metadata.name))),
  ].sort(compareFindings);
  return { baseline: baseline.source, compared: pairs.map((p) => p.next.metadata.name), findings };
}

function loadBaseline(
  options: CompatibilityOptions,
  generated: readonly ComparedCrd[],
): Promise<Baseline | { readonly missing: string }> | Baseline {
  const request = options.baseline;
  if (request.kind === 'file') return fileBaseline(options.root, request.path);
  if (request.kind === 'cluster')
    return clusterBaseline(
      generated.map((c) => c.metadata.name),
      request.env,
    );
  return gitBaseline(options.root, request.ref);
}

/**
 * The CRDs PROJECT gives a conversion webhook: the generated CRD does not say so itself (the
 * kustomize patch in config/crd adds it at deploy time).
 */
function conversionWebhookCrds(root: string): Set<string> {
  const path = join(root, PROJECT_FILE);
  if (!existsSync(path)) return new Set();
  const project = parseProjectFile(readFileSync(path, 'utf8'));
  return new Set(
    project.resources
      .filter((r) => r.webhooks?.conversion === true)
      .map((r) => `${r.plural}.${qualifiedGroup(r)}`),
  );
}
