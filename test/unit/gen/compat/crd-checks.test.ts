import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../../../src/gen/crd/json-schema-props.ts';
import {
  compareCrds,
  compareCrdSets,
  defaultCompatConfig,
  formatFinding,
  parseCompatConfig,
} from '../../../../src/gen/compat/index.ts';
import { specSchema, testCrd } from '../../../support/test-crd.ts';

/*
 * crdify's whole-CRD checks (scope, existingFieldRemoval, storedVersionRemoval), tsoperator's
 * crdRemoval, and crdify's comparison across the served versions of the new CRD.
 */
const int: JSONSchemaProps = { type: 'integer' };
const lines = (findings: ReturnType<typeof compareCrds>): string[] => findings.map(formatFinding);
const defaults = defaultCompatConfig();

describe('scope', () => {
  const v1 = [{ name: 'v1', schema: specSchema({}) }];

  it('reports Namespaced to Cluster', () => {
    assert.deepEqual(lines(compareCrds(testCrd(v1), testCrd(v1, { scope: 'Cluster' }), defaults, false)), [
      'widgets.example.org - error scope: scope changed: "Namespaced" -> "Cluster"',
    ]);
  });

  it('lets the same scope pass', () => {
    assert.deepEqual(compareCrds(testCrd(v1), testCrd(v1), defaults, false), []);
  });
});

describe('existingFieldRemoval', () => {
  it('reports a removed field once, with its version and path, not its children', () => {
    const old = testCrd([
      { name: 'v1', schema: specSchema({ size: int, tls: { type: 'object', properties: { ca: int } } }) },
    ]);
    const next = testCrd([{ name: 'v1', schema: specSchema({ size: int }) }]);
    assert.deepEqual(lines(compareCrds(old, next, defaults, false)), [
      'widgets.example.org v1 ^.spec.tls - error existingFieldRemoval: removed field',
    ]);
  });

  it('lets an added field pass', () => {
    const old = testCrd([{ name: 'v1', schema: specSchema({ size: int }) }]);
    const next = testCrd([{ name: 'v1', schema: specSchema({ size: int, replicas: int }) }]);
    assert.deepEqual(compareCrds(old, next, defaults, false), []);
  });

  it('compares a version only with the same version of the baseline', () => {
    const old = testCrd([{ name: 'v1alpha1', schema: specSchema({ size: int }) }]);
    const next = testCrd([
      { name: 'v1alpha1', schema: specSchema({ size: int }), served: false, storage: false },
      { name: 'v1', schema: specSchema({}) },
    ]);
    assert.deepEqual(compareCrds(old, next, defaults, false), []);
  });
});

describe('storedVersionRemoval', () => {
  const schema = specSchema({});

  it("reports the removal of a file baseline's storage version", () => {
    const old = testCrd([{ name: 'v1alpha1', schema }]);
    const next = testCrd([{ name: 'v1', schema }]);
    assert.deepEqual(lines(compareCrds(old, next, defaults, false)), [
      'widgets.example.org v1alpha1 - error storedVersionRemoval: stored version removed',
    ]);
  });

  it("reports the removal of a version in a cluster CRD's status.storedVersions", () => {
    const old = testCrd(
      [
        { name: 'v1alpha1', schema, storage: false },
        { name: 'v1', schema },
      ],
      { storedVersions: ['v1alpha1', 'v1'] },
    );
    const next = testCrd([{ name: 'v1', schema }]);
    assert.deepEqual(lines(compareCrds(old, next, defaults, false)), [
      'widgets.example.org v1alpha1 - error storedVersionRemoval: stored version removed',
    ]);
  });

  it('lets a version that was never stored go', () => {
    const old = testCrd(
      [
        { name: 'v1alpha1', schema, storage: false },
        { name: 'v1', schema },
      ],
      { storedVersions: ['v1'] },
    );
    assert.deepEqual(compareCrds(old, testCrd([{ name: 'v1', schema }]), defaults, false), []);
  });
});

describe('crdRemoval', () => {
  const widgets = testCrd([{ name: 'v1', schema: specSchema({}) }]);
  const renamed = { ...widgets, metadata: { name: 'gadgets.example.org' } };
  const REMOVED =
    'widgets.example.org - error crdRemoval: the CRD is no longer generated: objects stored in ' +
    'clusters and the clients of it break; if the API was deleted on purpose, set crdRemoval to ' +
    'Warn or None in crdify.yaml for this change';

  it('reports a CRD of the baseline that is no longer generated, by its name', () => {
    assert.deepEqual(lines(compareCrdSets([widgets], [], defaults)), [REMOVED]);
    assert.deepEqual(lines(compareCrdSets([widgets], [renamed], defaults)), [REMOVED]);
  });

  it('lets a CRD that is still generated, or a new one, pass', () => {
    assert.deepEqual(compareCrdSets([widgets], [widgets, renamed], defaults), []);
    assert.deepEqual(compareCrdSets([], [widgets], defaults), []);
  });

  it('is a warning with Warn, and silent with None', () => {
    const warn = parseCompatConfig('validations: [{ name: crdRemoval, enforcement: Warn }]', 'crdify.yaml');
    assert.deepEqual(
      compareCrdSets([widgets], [], warn).map((f) => f.severity),
      ['warning'],
    );
    const none = parseCompatConfig('validations: [{ name: crdRemoval, enforcement: None }]', 'crdify.yaml');
    assert.deepEqual(compareCrdSets([widgets], [], none), []);
  });
});

describe('served versions', () => {
  const capped = (maximum: number): JSONSchemaProps => specSchema({ size: { ...int, maximum } });
  const twoVersions = (v1alpha1: JSONSchemaProps, v1: JSONSchemaProps, conversion?: string) =>
    testCrd(
      [
        { name: 'v1', schema: v1 },
        { name: 'v1alpha1', schema: v1alpha1, storage: false },
      ],
      conversion === undefined ? {} : { conversion },
    );

  it('reports a served version that is stricter than an older served one', () => {
    const old = testCrd([{ name: 'v1alpha1', schema: capped(10) }]);
    const next = twoVersions(capped(10), capped(5));
    assert.deepEqual(lines(compareCrds(old, next, defaults, false)), [
      'widgets.example.org v1alpha1->v1 ^.spec.size - error maximum: maximum decreased: 10 -> 5',
    ]);
  });

  it('reports a field an older served version has and a newer one lacks (moved, or dropped)', () => {
    const old = testCrd([{ name: 'v1alpha1', schema: specSchema({ size: int }) }]);
    const moved = specSchema({ resources: { type: 'object', properties: { size: int } } });
    const next = twoVersions(specSchema({ size: int }), moved);
    assert.deepEqual(lines(compareCrds(old, next, defaults, false)), [
      'widgets.example.org v1alpha1->v1 ^.spec.size - error existingFieldRemoval: removed field',
    ]);
    const ignore = parseCompatConfig('conversion: Ignore', 'crdify.yaml');
    assert.deepEqual(compareCrds(old, next, ignore, true), []);
  });

  it('leaves out what the baseline already had between the same versions', () => {
    const crd = twoVersions(capped(10), capped(5));
    assert.deepEqual(compareCrds(crd, crd, defaults, false), []);
  });

  it('conversion: Ignore skips them for a CRD with a conversion webhook', () => {
    const ignore = parseCompatConfig('conversion: Ignore', 'crdify.yaml');
    const old = testCrd([{ name: 'v1alpha1', schema: capped(10) }]);
    assert.deepEqual(compareCrds(old, twoVersions(capped(10), capped(5)), ignore, true), []);
    assert.deepEqual(compareCrds(old, twoVersions(capped(10), capped(5), 'Webhook'), ignore, false), []);
    const clusterOld = testCrd([{ name: 'v1alpha1', schema: capped(10) }], { conversion: 'Webhook' });
    assert.deepEqual(compareCrds(clusterOld, twoVersions(capped(10), capped(5)), ignore, false), []);
  });

  it('conversion: Ignore still compares a CRD without a webhook, and None compares every CRD', () => {
    const ignore = parseCompatConfig('conversion: Ignore', 'crdify.yaml');
    const old = testCrd([{ name: 'v1alpha1', schema: capped(10) }]);
    assert.equal(compareCrds(old, twoVersions(capped(10), capped(5)), ignore, false).length, 1);
    assert.equal(compareCrds(old, twoVersions(capped(10), capped(5)), defaults, true).length, 1);
  });
});
