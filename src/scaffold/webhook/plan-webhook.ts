import { join } from 'node:path';
import { UsageError } from '../../errors.ts';
import { qualifiedGroup } from '../../project/project-config.ts';
import type { ProjectConfig, ResourceConfig, ResourceWebhooks } from '../../project/project-config.ts';
import { PROJECT_FILE, renderProjectFile } from '../../project/project-file.ts';
import { readProject } from '../read-project.ts';
import type { Change } from '../change.ts';
import { finishPlan } from '../finish-plan.ts';
import { licenseHeader } from '../license-header.ts';
import { templatesDir } from '../package-paths.ts';
import { renderTemplate } from '../render-template.ts';
import { PROJECT_RUNTIME_DIR } from '../runtime-files.ts';
import { StagingTree } from '../staging-tree.ts';
import { importPath } from '../api/api-paths.ts';
import { formatGenerated } from '../format-generated.ts';
import { conversionCode, type ConversionCode } from './conversion-code.ts';
import { spokeTest } from './conversion-test-objects.ts';
import { findSpokes, findWebhookResource } from './find-webhook-resource.ts';
import { readKindShapes, type KindShape } from './kind-shape.ts';
import { stageWebhookConfig } from './stage-webhook-config.ts';
import { LABEL_VALUE_MAX_LENGTH, kindExamples, type WrittenWebhooks } from './webhook-examples.ts';
import type { CreateWebhookOptions, SpokeTemplateData, WebhookTemplateData } from './webhook-options.ts';
import { conversionPath, webhookPaths } from './webhook-paths.ts';
import { wrapWords } from './wrap-words.ts';
import { webhookRegistration } from './webhook-registration.ts';
import { MAIN_FILE } from '../api/controller-registration.ts';

/** The plan of `create webhook`, and the resource it is for. */
export interface WebhookPlan {
  readonly changes: Change[];
  readonly resource: ResourceConfig;
}

/** The webhook types a template renders, with the spokes' APIs. */
interface WebhookTypes {
  readonly defaulting: boolean;
  readonly validation: boolean;
  readonly conversion: boolean;
  readonly spokes: readonly ResourceConfig[];
}

/** Renders a webhook template for one target file. */
export type RenderWebhook = (template: string, target: string) => Promise<string>;

/** The shape of a version of the kind as its types file declares it, undefined when unreadable. */
type ShapeOf = (resource: ResourceConfig) => KindShape | undefined;

/**
 * The changes `tsoperator create webhook` makes: a file per webhook type (defaulter, validator, a
 * conversion per spoke), a setup function registering them (called from main.ts), a test, the
 * webhooks in PROJECT, and the kustomize configuration that serves them in a cluster.
 *
 * @example
 * ```ts
 * const { changes } = await planWebhook({
 *   dir: '.', kind: 'WebApp', defaulting: true, validation: true, conversion: false, spokes: [], force: false,
 * });
 * ```
 */
export async function planWebhook(options: CreateWebhookOptions): Promise<WebhookPlan> {
  checkTypesRequested(options);
  const tree = await StagingTree.open(options.dir, { force: options.force });
  const project = await readProject(tree);
  const found = findWebhookResource(project, options);
  const spokes = findSpokes(project, found, options.spokes);
  const webhooks = mergeWebhooks(found, options);
  const resource: ResourceConfig = { ...found, webhooks };
  await tree.update(PROJECT_FILE, renderProjectFile(withResource(project, found, resource)));
  const requested = { ...options, spokes };
  const shapeOf = kindShapes(options.dir, project, [found, ...otherVersions(project, found)]);
  const render: RenderWebhook = async (template, target) =>
    formatGenerated(
      tree.root,
      target,
      await renderTemplate(
        templatePath(template),
        templateData(project, resource, requested, target, shapeOf),
      ),
    );
  const data = templateData(project, resource, requested, MAIN_FILE, shapeOf);
  await stageWebhookCode(tree, data, render);
  await stageWebhookRegistration(tree, resource, data.paths.setup);
  await stageWebhookConfig(tree, data, render);
  // Each version's test serves every webhook of the kind, so a new type or version updates the
  // tests of all its versions (each kept when edited).
  const updated = withResource(project, found, resource);
  for (const version of [resource, ...otherVersions(updated, resource).filter(hasWebhooks)]) {
    await stageWebhookTest(tree, updated, version, shapeOf);
  }
  return { changes: finishPlan(tree), resource };
}

function hasWebhooks(resource: ResourceConfig): boolean {
  const { defaulting, validation, conversion } = resource.webhooks ?? {};
  return defaulting === true || validation === true || conversion === true;
}

/** The webhook test of one version of the kind, covering every webhook type it has. */
async function stageWebhookTest(
  tree: StagingTree,
  project: ProjectConfig,
  resource: ResourceConfig,
  shapeOf: ShapeOf,
): Promise<void> {
  const { webhooks } = resource;
  const all: WebhookTypes = {
    defaulting: webhooks?.defaulting === true,
    validation: webhooks?.validation === true,
    conversion: webhooks?.conversion === true,
    spokes: findSpokes(project, resource, webhooks?.spoke ?? []),
  };
  // The test checks what the defaulter and validator do as they stand (kept when edited, or made
  // before a second version changed which field an example would take).
  const paths = webhookPaths(project, resource);
  const written = await writtenWebhooks(tree, paths, all);
  const test = templateData(project, resource, all, paths.test, shapeOf, written);
  const testText = await renderTemplate(templatePath('webhook.test.ts'), test);
  await tree.generate(test.target, await formatGenerated(tree.root, test.target, testText), true);
}

function checkTypesRequested(options: CreateWebhookOptions): void {
  if (!options.defaulting && !options.validation && !options.conversion) {
    throw new UsageError(
      'say which webhooks to create: --defaulting, --programmatic-validation and/or --conversion',
    );
  }
  if (options.conversion && options.spokes.length === 0) {
    throw new UsageError('--conversion needs the versions to convert to and from this one: --spoke v2[,v3]');
  }
  if (!options.conversion && options.spokes.length > 0) {
    throw new UsageError('--spoke is for conversion webhooks: add --conversion');
  }
}

/** The resource's webhooks with the requested ones added; one that exists needs --force. */
function mergeWebhooks(resource: ResourceConfig, options: CreateWebhookOptions): ResourceWebhooks {
  const existing = resource.webhooks;
  const requested = [
    ['defaulting', options.defaulting, existing?.defaulting],
    ['validation', options.validation, existing?.validation],
    ['conversion', options.conversion, existing?.conversion],
  ] as const;
  const again = requested.filter(([, asked, exists]) => asked && exists === true).map(([name]) => name);
  if (again.length > 0 && !options.force) {
    throw new UsageError(
      `${resource.kind} ${resource.version} already has a ${again.join(' and a ')} webhook: ` +
        're-run with --force to regenerate it (a file you changed is kept, and the new version written beside it)',
    );
  }
  const spoke = [...new Set([...(existing?.spoke ?? []), ...options.spokes])].sort();
  return {
    ...(options.conversion || existing?.conversion ? { conversion: true } : {}),
    ...(options.defaulting || existing?.defaulting ? { defaulting: true } : {}),
    ...(spoke.length > 0 ? { spoke } : {}),
    ...(options.validation || existing?.validation ? { validation: true } : {}),
    webhookVersion: existing?.webhookVersion ?? 'v1',
  };
}

function withResource(project: ProjectConfig, old: ResourceConfig, resource: ResourceConfig): ProjectConfig {
  return { ...project, resources: project.resources.map((r) => (r === old ? resource : r)) };
}

/**
 * The code: each requested type's file, registered in the kind's setup function, which main.ts
 * calls. Types that exist are only regenerated under --force; the others are left alone.
 */
async function stageWebhookCode(
  tree: StagingTree,
  data: WebhookTemplateData,
  render: RenderWebhook,
): Promise<void> {
  const { paths, kind } = data;
  await tree.generateIfMissing(paths.setup, await render('setup.ts', paths.setup));
  const inSetup = (target: string): string => importPath(paths.setup, target);
  const register = async (line: string, imports: readonly string[], presentWhen?: string): Promise<void> => {
    for (const importLine of imports) await tree.insert(paths.setup, 'webhook-imports', importLine);
    await tree.insert(paths.setup, 'webhooks', line, presentWhen);
  };
  if (data.defaulting) {
    await tree.generate(paths.defaulter, await render('defaulter.ts', paths.defaulter));
    await register(`mgr.webhookServer.registerDefaulter(${kind}Kind, new ${kind}Defaulter());`, [
      `import { ${kind}Defaulter } from '${inSetup(paths.defaulter)}';`,
    ]);
  }
  if (data.validation) {
    await tree.generate(paths.validator, await render('validator.ts', paths.validator));
    await register(`mgr.webhookServer.registerValidator(${kind}Kind, new ${kind}Validator());`, [
      `import { ${kind}Validator } from '${inSetup(paths.validator)}';`,
    ]);
  }
  if (data.conversion) await stageConversion(tree, data, render, register);
}

/** The setup function's import and call in main.ts. */
async function stageWebhookRegistration(
  tree: StagingTree,
  resource: ResourceConfig,
  setupPath: string,
): Promise<void> {
  const main = (await tree.read(MAIN_FILE)) ?? '';
  const { importLine, call } = webhookRegistration(resource, setupPath, main);
  await tree.insert(MAIN_FILE, 'imports', importLine);
  // Beside the controllers' registrations, as Kubebuilder's main.go sets webhooks up after them.
  await tree.insert(MAIN_FILE, 'controllers', call);
}

async function stageConversion(
  tree: StagingTree,
  data: WebhookTemplateData,
  render: RenderWebhook,
  register: (line: string, imports: readonly string[], presentWhen?: string) => Promise<void>,
): Promise<void> {
  for (const spoke of data.spokes) {
    await tree.generate(spoke.conversion, await render('conversion.ts', spoke.conversion));
  }
  const entries = data.spokes.map((s) => `${s.version}: ${s.conversionName}`);
  const registration = 'mgr.webhookServer.registerConversion(';
  const setup = (await tree.read(data.paths.setup)) ?? '';
  // One registration per hub, which may be the user's code by now: a new spoke is theirs to add.
  const missing = setup.includes(registration) ? entries.filter((entry) => !setup.includes(entry)) : [];
  if (missing.length > 0) {
    tree.requireManual(data.paths.setup, `add ${missing.join(', ')} to the spokes of registerConversion`);
  }
  await register(
    `${registration}${data.kind}Kind, { ${entries.join(', ')} });`,
    data.spokes.map(
      (s) => `import { ${s.conversionName} } from '${importPath(data.paths.setup, s.conversion)}';`,
    ),
    registration,
  );
}

function templatePath(template: string): string {
  return join(templatesDir('webhook'), `${template}.ejs`);
}

/** The kind's APIs in versions other than the resource's: its spokes, now or later. */
function otherVersions(project: ProjectConfig, resource: ResourceConfig): ResourceConfig[] {
  return project.resources.filter(
    (r) =>
      r.api !== undefined &&
      r.group === resource.group &&
      r.kind === resource.kind &&
      r.version !== resource.version,
  );
}

/** The kind's shapes, read once for every version. */
function kindShapes(root: string, project: ProjectConfig, resources: readonly ResourceConfig[]): ShapeOf {
  const refs = resources.map((r) => ({
    typesPath: webhookPaths(project, r).types,
    qualifiedGroup: qualifiedGroup(r),
    version: r.version,
    kind: r.kind,
  }));
  const shapes = readKindShapes(root, refs);
  return (resource) => shapes[resources.findIndex((r) => r.version === resource.version)];
}

/** The conversion of a spoke: a copy where no shape could be read (the types do not parse yet). */
function spokeCode(
  hub: KindShape | undefined,
  spoke: KindShape | undefined,
  names: { hub: string; spoke: string; hubVersion: string; spokeVersion: string },
): ConversionCode {
  if (!hub || !spoke) {
    const copy = { toHub: '{ ...spoke }', fromHub: '{ ...hub }', helpers: [], notes: [] };
    return { ...copy, usesMissing: false, keepsSpoke: false };
  }
  return conversionCode(
    { type: names.hub, version: names.hubVersion, shape: hub },
    { type: names.spoke, version: names.spokeVersion, shape: spoke },
  );
}

/** The kind and version in its webhooks' names, its group first beside the same kind in another group. */
function webhookName(project: ProjectConfig, resource: ResourceConfig): string {
  const name = `${resource.kind.toLowerCase()}-${resource.version}`;
  const repeated = project.resources.some(
    (r) => r.group !== resource.group && r.kind === resource.kind && r.version === resource.version,
  );
  if (!repeated) return name;
  return `${resource.group === '' ? 'core' : resource.group.toLowerCase().replaceAll('.', '-')}-${name}`;
}

/** The defaulter and validator the project has once this plan is applied. */
async function writtenWebhooks(
  tree: StagingTree,
  paths: WebhookTemplateData['paths'],
  types: WebhookTypes,
): Promise<WrittenWebhooks> {
  const defaulter = types.defaulting ? await tree.read(paths.defaulter) : undefined;
  const validator = types.validation ? await tree.read(paths.validator) : undefined;
  return {
    ...(defaulter === undefined ? {} : { defaulter }),
    ...(validator === undefined ? {} : { validator }),
  };
}

function templateData(
  project: ProjectConfig,
  resource: ResourceConfig,
  types: WebhookTypes,
  target: string,
  shapeOf: ShapeOf,
  written: WrittenWebhooks = {},
): WebhookTemplateData {
  const group = qualifiedGroup(resource);
  const kindLower = resource.kind.toLowerCase();
  const kindCamel = `${resource.kind.charAt(0).toLowerCase()}${resource.kind.slice(1)}`;
  return {
    kind: resource.kind,
    kindCamel,
    kindLower,
    plural: resource.plural,
    version: resource.version,
    qualifiedGroup: group,
    webhookName: webhookName(project, resource),
    pathSuffix: `${group.replaceAll('.', '-')}-${resource.version}-${kindLower}`,
    namespaced: resource.api?.namespaced ?? true,
    defaulting: types.defaulting,
    validation: types.validation,
    conversion: types.conversion,
    kindWebhooks: [resource, ...otherVersions(project, resource)].filter(hasWebhooks).map((r) => ({
      setupName: `setup${r.kind}${upperFirst(r.version)}Webhooks`,
      setup: webhookPaths(project, r).setup,
    })),
    kindConverts: [resource, ...otherVersions(project, resource)].some(
      (r) => r.webhooks?.conversion === true,
    ),
    spokes: types.spokes.map((spoke): SpokeTemplateData => {
      const typeAlias = `${resource.kind}${upperFirst(spoke.version)}`;
      const hubShape = shapeOf(resource);
      const spokeShape = shapeOf(spoke);
      return {
        version: spoke.version,
        typeAlias,
        conversionName: `${kindCamel}${upperFirst(spoke.version)}Conversion`,
        types: webhookPaths(project, spoke).types,
        sample: webhookPaths(project, spoke).sample,
        conversion: conversionPath(project, spoke),
        code: spokeCode(hubShape, spokeShape, {
          hub: resource.kind,
          spoke: typeAlias,
          hubVersion: resource.version,
          spokeVersion: spoke.version,
        }),
        test: hubShape && spokeShape ? spokeTest(hubShape, spokeShape) : undefined,
      };
    }),
    examples: kindExamples(
      shapeOf(resource),
      kindCamel,
      otherVersions(project, resource).map(shapeOf),
      written,
    ),
    LABEL_VALUE_MAX_LENGTH,
    wrap: wrapWords,
    projectName: project.projectName,
    licenseHeader: licenseHeader(project.settings),
    paths: webhookPaths(project, resource),
    target,
    imp: (projectPath) =>
      importPath(target, projectPath === 'runtime' ? `${PROJECT_RUNTIME_DIR}/index.ts` : projectPath),
  };
}

function upperFirst(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
