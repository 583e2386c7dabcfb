import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseProjectFile } from '../../../../src/project/project-file.ts';
import { replayCommands } from '../../../../src/scaffold/update/replay-commands.ts';
import { TESTDATA_DIR } from '../../../support/sample-project.ts';

test('the commands that remake project-v4 from its PROJECT, APIs before webhooks', async () => {
  const project = parseProjectFile(await readFile(join(TESTDATA_DIR, 'project-v4', 'PROJECT'), 'utf8'));
  const crew = (version: string, kind: string): string[] => [
    '--group',
    'crew',
    '--version',
    version,
    '--kind',
    kind,
  ];
  assert.deepEqual(replayCommands(project), [
    [
      'init',
      '--domain',
      'testproject.org',
      '--project-name',
      'project-v4',
      '--license',
      'apache2',
      '--owner',
      'The tsoperator authors',
    ],
    ['create', 'api', ...crew('v1', 'Captain'), '--resource', '--controller'],
    [
      'create',
      'api',
      ...crew('v1', 'Memcached'),
      '--resource',
      '--controller',
      '--image',
      'memcached:1.6.26-alpine3.19',
      '--port',
      '11211',
      '--image-container-command',
      'memcached,--memory-limit=64,-o,modern,-v',
      '--run-as-user',
      '1001',
    ],
    ['create', 'api', ...crew('v1', 'Admiral'), '--resource', '--no-namespaced', '--controller'],
    [
      'create',
      'api',
      '--group',
      'apps',
      '--version',
      'v1',
      '--kind',
      'Deployment',
      '--no-resource',
      '--controller',
    ],
    ['create', 'api', ...crew('v2', 'Captain'), '--resource', '--no-controller'],
    [
      'create',
      'webhook',
      ...crew('v1', 'Captain'),
      '--defaulting',
      '--programmatic-validation',
      '--conversion',
      '--spoke',
      'v2',
    ],
    ['create', 'webhook', ...crew('v1', 'Memcached'), '--defaulting', '--programmatic-validation'],
    ['edit', '--plugins', 'grafana'],
    ['manifests'],
  ]);
});

test('a namespaced multi-group project without a license, with grafana, and a kind with its own plural', async () => {
  const project = parseProjectFile(await readFile(join(TESTDATA_DIR, 'project-v4', 'PROJECT'), 'utf8'));
  const [captain] = project.resources;
  assert.ok(captain);
  const commands = replayCommands({
    ...project,
    multigroup: true,
    grafana: true,
    settings: { namespaced: true, license: 'none' },
    resources: [{ ...captain, plural: 'captainz', webhooks: undefined }],
  });
  assert.deepEqual(commands[0], [
    'init',
    '--domain',
    'testproject.org',
    '--project-name',
    'project-v4',
    '--license',
    'none',
    '--namespaced',
    '--multigroup',
  ]);
  assert.deepEqual(commands[1]?.slice(8), ['--plural', 'captainz', '--resource', '--controller']);
  assert.deepEqual(commands.slice(2), [['edit', '--plugins', 'grafana'], ['manifests']]);
});

test('a project made multi-group by its second group is replayed the same way, so its first kinds keep their paths', async () => {
  const project = parseProjectFile(await readFile(join(TESTDATA_DIR, 'project-v4', 'PROJECT'), 'utf8'));
  const [captain] = project.resources;
  assert.ok(captain);
  const frigate = { ...captain, group: 'ship', kind: 'Frigate', plural: 'frigates', webhooks: undefined };
  const resources = [
    { ...captain, webhooks: undefined },
    { ...frigate, path: 'src/api/ship/v1/frigate.types.ts' },
  ];
  const commands = replayCommands({ ...project, multigroup: true, resources });
  assert.ok(!commands[0]?.includes('--multigroup'), 'init is single-group, as the project began');
  assert.ok(!commands[1]?.includes('--multigroup'));
  assert.equal(commands[2]?.at(-1), '--multigroup', 'the second group makes it multi-group');

  const fromInit = replayCommands({
    ...project,
    multigroup: true,
    resources: resources.map((r) => ({
      ...r,
      path: `src/api/${r.group}/v1/${r.kind.toLowerCase()}.types.ts`,
    })),
  });
  assert.equal(fromInit[0]?.at(-1), '--multigroup', 'multi-group from init');
  assert.ok(fromInit.slice(1).every((command) => !command.includes('--multigroup')));
});

test('a webhook made before the project turned multi-group is replayed before the turn, at its single-group path', async () => {
  const project = parseProjectFile(await readFile(join(TESTDATA_DIR, 'project-v4', 'PROJECT'), 'utf8'));
  const [captain] = project.resources;
  assert.ok(captain);
  const early = { ...captain, webhooks: { webhookVersion: 'v1', defaulting: true } };
  const frigate = {
    ...early,
    group: 'ship',
    kind: 'Frigate',
    plural: 'frigates',
    path: 'src/api/ship/v1/frigate.types.ts',
  };
  const multigroup = { ...project, multigroup: true, resources: [early, frigate], grafana: false };
  /** `create api Captain`, `init`: what each command makes. */
  const kinds = (commands: readonly (readonly string[])[]): string[] =>
    commands.map((command) => {
      const kind = command.includes('--kind') ? command[command.indexOf('--kind') + 1] : undefined;
      return [command[0], command[0] === 'create' ? command[1] : undefined, kind].filter(Boolean).join(' ');
    });
  assert.deepEqual(kinds(replayCommands(multigroup, [early])), [
    'init',
    'create api Captain',
    'create webhook Captain',
    'create api Frigate',
    'create webhook Frigate',
    'manifests',
  ]);
  assert.deepEqual(kinds(replayCommands(multigroup)).slice(1, 3), [
    'create api Captain',
    'create api Frigate',
  ]);
});

test("a conversion webhook made before the turn waits for its spokes' APIs", async () => {
  const project = parseProjectFile(await readFile(join(TESTDATA_DIR, 'project-v4', 'PROJECT'), 'utf8'));
  const [captain] = project.resources;
  assert.ok(captain);
  const hub = { ...captain, webhooks: { webhookVersion: 'v1', conversion: true, spoke: ['v2'] } };
  const spoke = { ...captain, version: 'v2', webhooks: undefined, path: 'src/api/v2/captain.types.ts' };
  const frigate = { ...spoke, group: 'ship', version: 'v1', kind: 'Frigate', plural: 'frigates' };
  const multigroup = {
    ...project,
    multigroup: true,
    resources: [hub, spoke, { ...frigate, path: 'src/api/ship/v1/frigate.types.ts' }],
    grafana: false,
  };
  const commands = replayCommands(multigroup, [hub]);
  assert.deepEqual(
    commands.slice(1, 5).map((command) => command.slice(0, 2).join(' ')),
    ['create api', 'create api', 'create webhook', 'create api'],
  );
  assert.equal(commands[2]?.[5], 'v2', 'the spoke is created before the hub webhook');
});
