import { test } from 'node:test';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { Project } from 'ts-morph';
import { DiagnosticList, createMarkerRegistry } from '../../../src/markers/index.ts';
import type { MarkerContext } from '../../../src/markers/index.ts';
import { generateRoles, readRbacMarkers } from '../../../src/gen/rbac/index.ts';
import { generateWebhookConfigurations, readWebhookMarkers } from '../../../src/gen/webhook/index.ts';
import { runControllerGen } from '../../support/controller-gen.ts';
import { assertSameManifests } from '../../support/manifest-comparison.ts';

const parityRoot = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'parity');

interface Manifests {
  roles: unknown[];
  webhooks: unknown[];
}

for (const name of (await readdir(parityRoot)).sort()) {
  test(`${name}: tsoperator writes what controller-gen writes`, async () => {
    const output = await mkdtemp(join(tmpdir(), `tsoperator-parity-${name}-`));
    try {
      const expected = await controllerGenManifests(join(parityRoot, name, 'go'), output);
      const actual = tsoperatorManifests(join(parityRoot, name, 'ts'));
      assertSameManifests(actual.roles, expected.roles, `${name}: role.yaml`);
      assertSameManifests(actual.webhooks, expected.webhooks, `${name}: webhook/manifests.yaml`);
    } finally {
      await rm(output, { recursive: true, force: true });
    }
  });
}

async function controllerGenManifests(goModule: string, output: string): Promise<Manifests> {
  const { roleFile, webhookFile } = await runControllerGen(goModule, output);
  return { roles: await yamlDocuments(roleFile), webhooks: await yamlDocuments(webhookFile) };
}

async function yamlDocuments(file: string): Promise<unknown[]> {
  if (!existsSync(file)) return [];
  return loadAll(await readFile(file, 'utf8')).filter((doc) => doc !== null);
}

function tsoperatorManifests(projectDir: string): Manifests {
  const project = new Project({ skipAddingFilesFromTsConfig: true });
  const files = project.addSourceFilesAtPaths(join(projectDir, 'src', '**', '*.ts'));
  const diagnostics = new DiagnosticList();
  const context: MarkerContext = {
    registry: createMarkerRegistry(),
    diagnostics,
    displayPath: (f) => f.getFilePath(),
  };
  const roles = generateRoles(readRbacMarkers(files, context));
  const webhookMarkers = readWebhookMarkers(files, context);
  const webhooks = generateWebhookConfigurations(
    webhookMarkers.webhooks,
    webhookMarkers.configurations,
    diagnostics,
  );
  diagnostics.throwIfErrors();
  return { roles, webhooks };
}
