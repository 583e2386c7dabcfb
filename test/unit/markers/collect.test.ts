import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Project } from 'ts-morph';
import {
  DiagnosticList,
  collectFileMarkers,
  collectMarkers,
  createMarkerRegistry,
  formatDiagnostic,
  packageMarkers,
  validationMarkers,
  crdMarkers,
} from '../../../src/markers/index.ts';
import type { MarkerContext } from '../../../src/markers/index.ts';

function load(text: string): { project: Project; context: MarkerContext; diagnostics: DiagnosticList } {
  const project = new Project({ useInMemoryFileSystem: true });
  project.createSourceFile('src/api/v1/web.ts', text);
  const diagnostics = new DiagnosticList();
  const context: MarkerContext = {
    registry: createMarkerRegistry(),
    diagnostics,
    displayPath: (f) => f.getFilePath().slice(1),
  };
  return { project, context, diagnostics };
}

const source = `// +groupName=demo.example.org
// +versionName=v1

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

/** WebApp is an app. */
export interface WebApp {
  /**
   * Replicas to run.
   * +kubebuilder:validation:Minimum=1
   */
  replicas: number;
  // +kubebuilder:validation:MaxLength=ten
  // +kubebuilder:validation:Minimun=3
  // +kubebuilder:subresource:status
  name: string;
}
`;

describe('collectMarkers', () => {
  it('reads package markers from the file header and type markers above the type', () => {
    const { project, context, diagnostics } = load(source);
    const file = project.getSourceFileOrThrow('src/api/v1/web.ts');
    const fileMarkers = collectFileMarkers(file, context);
    assert.equal(fileMarkers.value(packageMarkers.groupName), 'demo.example.org');
    assert.equal(fileMarkers.value(packageMarkers.versionName), 'v1');
    const type = collectMarkers(file.getInterfaceOrThrow('WebApp'), 'type', context);
    assert.equal(type.value(crdMarkers.objectRoot), true);
    assert.equal(type.has(crdMarkers.statusSubresource), true);
    const replicas = file.getInterfaceOrThrow('WebApp').getPropertyOrThrow('replicas');
    assert.equal(collectMarkers(replicas, 'field', context).value(validationMarkers.Minimum), 1);
    assert.deepEqual(diagnostics.items, []);
  });

  it('reports bad values, unknown and misplaced markers at file:line:col', () => {
    const { project, context, diagnostics } = load(source);
    const name = project
      .getSourceFileOrThrow('src/api/v1/web.ts')
      .getInterfaceOrThrow('WebApp')
      .getPropertyOrThrow('name');
    collectMarkers(name, 'field', context);
    assert.deepEqual(diagnostics.items.map(formatDiagnostic), [
      'src/api/v1/web.ts:14:40 - error TSOP1003: invalid value (want int): expected integer, got "ten" in marker +kubebuilder:validation:MaxLength',
      'src/api/v1/web.ts:15:6 - error TSOP1001: unknown marker +kubebuilder:validation:Minimun',
      'src/api/v1/web.ts:16:6 - error TSOP1005: marker +kubebuilder:subresource:status cannot stand on a field; it belongs on a type',
    ]);
  });
});
