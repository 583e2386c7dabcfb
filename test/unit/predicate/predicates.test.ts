import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubernetesObject, V1ObjectMeta } from '@kubernetes/client-node';
import type { ObjectEvent } from '../../../src/runtime/event/object-event.ts';
import {
  annotationsChanged,
  generationChanged,
  labelsChanged,
  resourceVersionChanged,
} from '../../../src/runtime/predicate/changed-predicates.ts';
import { and, not, or } from '../../../src/runtime/predicate/combinators.ts';
import { labelSelectorPredicate } from '../../../src/runtime/predicate/label-selector-predicate.ts';
import type { Predicate } from '../../../src/runtime/predicate/predicate.ts';

const object = (metadata: V1ObjectMeta): KubernetesObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'a', ...metadata },
});
const update = (oldMeta: V1ObjectMeta, newMeta: V1ObjectMeta): ObjectEvent<KubernetesObject> => ({
  type: 'update',
  oldObject: object(oldMeta),
  object: object(newMeta),
});
const created = (metadata: V1ObjectMeta): ObjectEvent<KubernetesObject> => ({
  type: 'create',
  object: object(metadata),
  isInInitialList: false,
});
const others = (metadata: V1ObjectMeta): ObjectEvent<KubernetesObject>[] => [
  { type: 'create', object: object(metadata), isInInitialList: false },
  { type: 'delete', object: object(metadata), finalStateUnknown: false },
  { type: 'generic', object: object(metadata) },
];

describe('change predicates', () => {
  const cases: [string, Predicate<KubernetesObject>, V1ObjectMeta, V1ObjectMeta, V1ObjectMeta][] = [
    [
      'generationChanged',
      generationChanged,
      { generation: 1 },
      { generation: 2 },
      { generation: 1, resourceVersion: '9' },
    ],
    [
      'resourceVersionChanged',
      resourceVersionChanged,
      { resourceVersion: '1' },
      { resourceVersion: '2' },
      { resourceVersion: '1', generation: 5 },
    ],
    [
      'labelsChanged',
      labelsChanged,
      { labels: { a: '1' } },
      { labels: { a: '2' } },
      { labels: { a: '1' }, annotations: { x: 'y' } },
    ],
    [
      'annotationsChanged',
      annotationsChanged,
      { annotations: { a: '1' } },
      { annotations: { a: '1', b: '' } },
      { annotations: { a: '1' }, labels: { x: 'y' } },
    ],
  ];
  for (const [name, predicate, before, changed, unchanged] of cases) {
    it(`${name} passes an update that changes it, stops one that does not, and passes other events`, () => {
      assert.equal(predicate(update(before, changed)), true);
      assert.equal(predicate(update(before, unchanged)), false);
      for (const event of others(before)) assert.equal(predicate(event), true, event.type);
    });
  }

  it('labelsChanged sees absent and empty labels as the same, and a removed label as a change', () => {
    assert.equal(labelsChanged(update({}, { labels: {} })), false);
    assert.equal(labelsChanged(update({ labels: { a: '1', b: '2' } }, { labels: { a: '1' } })), true);
    assert.equal(labelsChanged(update({ labels: { a: '1' } }, { labels: { b: '1' } })), true);
  });
});

describe('labelSelectorPredicate', () => {
  it('matches matchLabels and every matchExpressions operator against the new object', () => {
    const predicate = labelSelectorPredicate({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['front', 'back'] },
        { key: 'env', operator: 'NotIn', values: ['dev'] },
        { key: 'team', operator: 'Exists' },
        { key: 'legacy', operator: 'DoesNotExist' },
      ],
    });
    const labels = { app: 'web', tier: 'front', team: 'shop' };
    assert.equal(predicate(created({ labels })), true);
    assert.equal(predicate(created({ labels: { ...labels, env: 'dev' } })), false);
    assert.equal(predicate(created({ labels: { ...labels, legacy: 'yes' } })), false);
    assert.equal(predicate(created({ labels: { ...labels, tier: 'db' } })), false);
    assert.equal(predicate(update({ labels: { app: 'other' } }, { labels })), true);
    assert.equal(predicate(update({ labels }, { labels: { app: 'other' } })), false);
  });

  it('takes the string form, and matches everything when empty', () => {
    assert.equal(
      labelSelectorPredicate('app=web,tier in (front)')(created({ labels: { app: 'web', tier: 'front' } })),
      true,
    );
    assert.equal(labelSelectorPredicate({})(created({})), true);
  });

  it('refuses an unknown operator at once', () => {
    assert.throws(
      () => labelSelectorPredicate({ matchExpressions: [{ key: 'a', operator: 'Gt' }] }),
      /"Gt" is not a valid/,
    );
  });

  it('refuses an operator named like an inherited property of an object', () => {
    for (const operator of ['toString', 'constructor', '__proto__', 'hasOwnProperty'])
      assert.throws(
        () => labelSelectorPredicate({ matchExpressions: [{ key: 'a', operator }] }),
        new RegExp(`"${operator}" is not a valid label selector operator`),
      );
  });
});

describe('and, or, not', () => {
  const yes: Predicate<KubernetesObject> = () => true;
  const no: Predicate<KubernetesObject> = () => false;
  const event = created({});

  it('combine predicates as boolean operators', () => {
    assert.equal(and(yes, yes)(event), true);
    assert.equal(and(yes, no)(event), false);
    assert.equal(or(no, yes)(event), true);
    assert.equal(or(no, no)(event), false);
    assert.equal(not(no)(event), true);
    assert.equal(and<KubernetesObject>()(event), true);
    assert.equal(or<KubernetesObject>()(event), false);
  });

  it('compose the change predicates: spec or label changes', () => {
    const specOrLabels = or(generationChanged, labelsChanged);
    assert.equal(specOrLabels(update({ generation: 1 }, { generation: 1, labels: { a: 'b' } })), true);
    assert.equal(specOrLabels(update({ generation: 1 }, { generation: 1, resourceVersion: '3' })), false);
  });
});
