import { it } from 'node:test';
import assert from 'node:assert/strict';
import { Project } from 'ts-morph';
import {
  DiagnosticList,
  collectFreeMarkers,
  createMarkerRegistry,
  rbacMarkers,
  webhookMarkers,
} from '../../../src/markers/index.ts';

function rbacIn(source: string): { verbs: string[]; line: number }[] {
  const project = new Project({ useInMemoryFileSystem: true });
  const file = project.createSourceFile('/src/controller.ts', source);
  const context = {
    registry: createMarkerRegistry(),
    diagnostics: new DiagnosticList(),
    displayPath: () => 'src/controller.ts',
  };
  return collectFreeMarkers(file, [rbacMarkers.rule], context)
    .get(rbacMarkers.rule)
    .map(({ value, location }) => ({ verbs: value.verbs, line: location.line }));
}

it('finds rbac markers in line comments, JSDoc blocks and class bodies', () => {
  const source = [
    '// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get',
    'export class Reconciler {',
    '  /**',
    '   * +kubebuilder:rbac:groups=apps,resources=deployments,verbs=list',
    '   */',
    '  reconcile(): void {}',
    '  // +kubebuilder:rbac:groups=apps,resources=deployments,verbs=watch',
    '}',
  ].join('\n');
  assert.deepEqual(rbacIn(source), [
    { verbs: ['get'], line: 1 },
    { verbs: ['list'], line: 4 },
    { verbs: ['watch'], line: 7 },
  ]);
});

it('ignores marker text inside strings and other markers', () => {
  const source = [
    "const text = '// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get';",
    'const template = `',
    '// +kubebuilder:rbac:groups=apps,resources=pods,verbs=get',
    '`;',
    '// +kubebuilder:object:root=true',
    'export { text, template };',
  ].join('\n');
  assert.deepEqual(rbacIn(source), []);
});

it('reports a broken rbac marker at its file:line:col and keeps the others', () => {
  const project = new Project({ useInMemoryFileSystem: true });
  const source = [
    'export class Reconciler {}',
    '// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get',
    '  // +kubebuilder:rbac:groups=apps,resources=deployments',
  ].join('\n');
  const file = project.createSourceFile('/src/controller.ts', source);
  const diagnostics = new DiagnosticList();
  const context = { registry: createMarkerRegistry(), diagnostics, displayPath: () => 'src/controller.ts' };
  const markers = collectFreeMarkers(file, [rbacMarkers.rule], context).get(rbacMarkers.rule);
  assert.equal(markers.length, 1);
  assert.deepEqual(
    diagnostics.items.map((d) => [d.code, d.location.line, d.location.column]),
    [['TSOP1004', 3, 57]],
  );
  assert.match(diagnostics.items[0]?.message ?? '', /verbs/);
});

it('finds a marker after code on the same line and in a one-line block comment', () => {
  const source = [
    'export const x = 1; // +kubebuilder:rbac:groups=apps,resources=pods,verbs=list',
    '/* +kubebuilder:rbac:groups=apps,resources=pods,verbs=watch */',
  ].join('\n');
  assert.deepEqual(rbacIn(source), [
    { verbs: ['list'], line: 1 },
    { verbs: ['watch'], line: 2 },
  ]);
});

it('refuses rbac and webhook markers written name:= or name=, at the separator, as controller-gen does', () => {
  const project = new Project({ useInMemoryFileSystem: true });
  const source = [
    '// +kubebuilder:rbac:=groups=apps,resources=deployments,verbs=get',
    '// +kubebuilder:rbac=groups=apps,resources=deployments,verbs=list',
    '// +kubebuilder:webhook:=path=/mutate,mutating=true,failurePolicy=fail,sideEffects=None,groups=apps,resources=deployments,verbs=create,versions=v1,name=m.example.org,admissionReviewVersions=v1',
    'export class Reconciler {}',
  ].join('\n');
  const file = project.createSourceFile('/src/controller.ts', source);
  const diagnostics = new DiagnosticList();
  const context = { registry: createMarkerRegistry(), diagnostics, displayPath: () => 'src/controller.ts' };
  const definitions = [rbacMarkers.rule, webhookMarkers.webhook];
  assert.deepEqual(collectFreeMarkers(file, definitions, context).all(), []);
  assert.deepEqual(
    diagnostics.items.map((d) => [d.code, d.location.line, d.location.column]),
    [
      ['TSOP1006', 1, 21],
      ['TSOP1006', 2, 21],
      ['TSOP1006', 3, 24],
    ],
  );
  assert.match(diagnostics.items[0]?.message ?? '', /write \+kubebuilder:rbac:groups=<value>/);
});
