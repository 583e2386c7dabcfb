import { execa } from 'execa';
import { replaceInterface } from './edit-types.ts';
import { createApi, emptyProjectFolder, initProject } from './scaffold-project.ts';
import { runCliCaptured } from './captured-cli.ts';

/** The scaffolded WebApp types file. */
const TYPES = 'src/api/v1/webapp.types.ts';

/** A WebAppSpec with an optional string, and a count of at most 10. */
const FIRST_SPEC = `
  // +optional
  /** foo is an example field. */
  foo?: string;

  // +kubebuilder:validation:Maximum=10
  // +optional
  /** replicas is how many pods serve the app. */
  replicas?: int32;
`;

/** The edit that breaks clients: foo removed, a required field added, the maximum tightened. */
const BREAKING_SPEC = `
  // +kubebuilder:validation:Maximum=5
  // +optional
  /** replicas is how many pods serve the app. */
  replicas?: int32;

  // +required
  /** size is the size of each pod. */
  size: int32;
`;

/** The three findings of {@link BREAKING_SPEC} against {@link FIRST_SPEC}. */
export const BREAKING_FINDINGS = [
  'webapps.demo.example.org v1 ^.spec - error required: new required fields: [size]',
  'webapps.demo.example.org v1 ^.spec.foo - error existingFieldRemoval: removed field',
  'webapps.demo.example.org v1 ^.spec.replicas - error maximum: maximum decreased: 10 -> 5',
];

/** Runs git in `dir` as a user with a name, failing when git fails. */
export async function git(dir: string, ...args: string[]): Promise<string> {
  const identity = [
    '-c',
    'user.name=Test',
    '-c',
    'user.email=test@example.org',
    '-c',
    'commit.gpgsign=false',
  ];
  return (await execa('git', [...identity, ...args], { cwd: dir })).stdout;
}

/**
 * A scaffolded project with one kind, its CRD generated from {@link FIRST_SPEC} and committed on
 * branch `branch` of a new git repository; `process.cwd()` is the project afterwards. Returns its folder.
 */
export async function committedProject(branch: string): Promise<string> {
  const dir = await emptyProjectFolder();
  await initProject(dir);
  await createApi(dir, { group: 'demo', version: 'v1', kind: 'WebApp' });
  await replaceInterface(dir, TYPES, 'WebAppSpec', FIRST_SPEC);
  process.chdir(dir);
  const generated = await runCliCaptured(['manifests']);
  if (generated.code !== 0) throw new Error(`manifests failed:\n${generated.stderr}`);
  await git(dir, 'init', '--quiet', '--initial-branch', branch);
  await git(dir, 'add', '.');
  await git(dir, 'commit', '--quiet', '-m', 'first API');
  return dir;
}

/** Edits the committed project's types as {@link BREAKING_SPEC} says, without regenerating. */
export function breakTheApi(dir: string): Promise<void> {
  return replaceInterface(dir, TYPES, 'WebAppSpec', BREAKING_SPEC);
}
