import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Project } from 'ts-morph';
import { DiagnosticList, createMarkerRegistry, formatDiagnostic } from '../../../src/markers/index.ts';
import { generateWebhookConfigurations, readWebhookMarkers } from '../../../src/gen/webhook/index.ts';

const VALID =
  'path=/validate-v1-pod,mutating=false,failurePolicy=fail,sideEffects=None,groups="",resources=pods,verbs=create,versions=v1,name=vpod.kb.io,admissionReviewVersions=v1';

/** The diagnostics generating webhooks from `source` (a file at src/webhooks/pod.ts) reports. */
function errorsFor(source: string): string[] {
  const project = new Project({ useInMemoryFileSystem: true });
  const file = project.createSourceFile('/src/webhooks/pod.ts', source);
  const diagnostics = new DiagnosticList();
  const context = { registry: createMarkerRegistry(), diagnostics, displayPath: () => 'src/webhooks/pod.ts' };
  const markers = readWebhookMarkers([file], context);
  generateWebhookConfigurations(markers.webhooks, markers.configurations, diagnostics);
  return diagnostics.items.map(formatDiagnostic);
}

function webhook(args: string): string {
  return `export const webhook = 1;\n\n// +kubebuilder:webhook:${args}\n`;
}

describe('webhook marker errors point at the marker', () => {
  it('accepts a valid marker', () => {
    assert.deepEqual(errorsFor(webhook(VALID)), []);
  });

  it('needs exactly one of path and url', () => {
    assert.deepEqual(errorsFor(webhook(`${VALID},url="https://example.org/x"`)), [
      'src/webhooks/pod.ts:3:4 - error TSOP1003: `url` or `path` markers are required and mutually exclusive',
    ]);
  });

  it('refuses an unknown matchPolicy', () => {
    assert.deepEqual(errorsFor(webhook(`${VALID},matchPolicy=Loose`)), [
      'src/webhooks/pod.ts:3:4 - error TSOP1003: unknown value "Loose" for matchPolicy: use Exact or Equivalent',
    ]);
  });

  it('needs sideEffects None or NoneOnDryRun', () => {
    assert.deepEqual(errorsFor(webhook(VALID.replace('sideEffects=None', 'sideEffects=Some'))), [
      'src/webhooks/pod.ts:3:4 - error TSOP1003: sideEffects must not be Some for admissionregistration/v1: use None or NoneOnDryRun',
    ]);
    assert.deepEqual(errorsFor(webhook(VALID.replace('sideEffects=None,', ''))), [
      'src/webhooks/pod.ts:3:4 - error TSOP1003: sideEffects is required: use None or NoneOnDryRun',
    ]);
  });

  it('keeps timeoutSeconds between 1 and 30', () => {
    assert.deepEqual(errorsFor(webhook(`${VALID},timeoutSeconds=31`)), [
      'src/webhooks/pod.ts:3:4 - error TSOP1003: timeoutSeconds must be between 1 and 30, got 31',
    ]);
  });

  it('supports only v1 webhook configurations', () => {
    assert.deepEqual(errorsFor(webhook(`${VALID},webhookVersions=v1beta1`)), [
      'src/webhooks/pod.ts:3:4 - error TSOP1003: unsupported webhook version: v1beta1 (only v1 is supported)',
    ]);
  });

  it('refuses a patch with an unknown field or a strategic merge directive', () => {
    assert.deepEqual(errorsFor(webhook(`${VALID},patch=\`{"namespaceSelectr":{}}\``)), [
      'src/webhooks/pod.ts:3:4 - error TSOP1003: patch: unknown field "namespaceSelectr"; a webhook has name, clientConfig, rules, failurePolicy, matchPolicy, namespaceSelector, objectSelector, sideEffects, timeoutSeconds, admissionReviewVersions, matchConditions',
    ]);
    assert.deepEqual(errorsFor(webhook(`${VALID},patch=\`{"rules":[{"$patch":"delete"}]}\``)), [
      'src/webhooks/pod.ts:3:4 - error TSOP1003: patch: the strategic merge directive "$patch" is not supported; write the fields as they should be',
    ]);
  });

  it('allows one webhookconfiguration marker per kind', () => {
    const source = `${webhook(VALID)}// +kubebuilder:webhookconfiguration:mutating=false,name=a\n// +kubebuilder:webhookconfiguration:mutating=false,name=b\n`;
    assert.deepEqual(errorsFor(source), [
      'src/webhooks/pod.ts:5:4 - error TSOP2003: a second validating +kubebuilder:webhookconfiguration marker; keep one per project',
    ]);
  });

  it('reports a missing required argument where it stands', () => {
    const [error] = errorsFor(webhook(VALID.replace(',name=vpod.kb.io', '')));
    assert.match(error ?? '', /^src\/webhooks\/pod\.ts:3:\d+ - error TSOP1004: .*name/);
  });
});
