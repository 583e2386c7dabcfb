import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crdsInYaml } from '../../../../src/gen/compat/crds-in-yaml.ts';

/* The CRDs of a baseline file, however it was written: by the generator, by hand, or by kubectl. */
const crd = (name: string): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${name}
spec:
  scope: Namespaced
  versions: []
`;
const names = (text: string): string[] => crdsInYaml(text, 'baseline.yaml').map((c) => c.metadata.name);

describe('crdsInYaml', () => {
  it('reads the CRDs of a multi-document file, skipping empty documents and other kinds', () => {
    const text = `---\n# first\n---\n${crd('a.example.org')}---\n---\napiVersion: v1\nkind: ConfigMap\n---\n${crd('b.example.org')}`;
    assert.deepEqual(names(text), ['a.example.org', 'b.example.org']);
  });

  it('reads a file with CRLF line ends', () => {
    assert.deepEqual(names(crd('a.example.org').replaceAll('\n', '\r\n')), ['a.example.org']);
  });

  it('reads the items of a List, as `kubectl get crd -o yaml` prints several', () => {
    const item = (name: string): string => `- ${crd(name).trimEnd().replaceAll('\n', '\n  ')}\n`;
    const text = `apiVersion: v1\nkind: List\nitems:\n${item('a.example.org')}${item('b.example.org')}`;
    assert.deepEqual(names(text), ['a.example.org', 'b.example.org']);
  });
});
