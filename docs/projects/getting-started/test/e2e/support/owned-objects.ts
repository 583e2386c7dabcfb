/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import type { Kubectl } from './e2e-cluster.ts';

/** What names an object to kubectl: enough to get, patch or delete it again. */
export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
}

/** How long one teardown delete waits for its objects to go (finalizers, a namespace's contents). */
const DELETE_TIMEOUT = '2m';

/**
 * The label the suite puts on each object it creates. A run interrupted before its teardown (Ctrl-C
 * skips node:test's `after`) leaves them behind marked: the next run takes them as its own, to delete.
 */
export const CREATED_BY_SUITE = 'e2e.tsoperator.dev/created-by-suite';

/** An object as a manifest or kubectl's JSON has it, as far as naming it goes. */
export interface NamedObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: {
    readonly name: string;
    readonly namespace?: string;
    readonly labels?: Readonly<Record<string, string>>;
  };
}

interface ListedObject extends NamedObject {
  readonly items?: readonly ListedObject[];
}

/** What names `object`. */
export function refOf({ apiVersion, kind, metadata }: NamedObject): ObjectRef {
  return { apiVersion, kind, name: metadata.name, namespace: metadata.namespace };
}

/** The objects `args` name (`-f <file>`, with `-n <namespace>`) that exist now. */
export async function existingObjects(kubectl: Kubectl, args: readonly string[]): Promise<ObjectRef[]> {
  return (await listedObjects(kubectl, args)).map(refOf);
}

async function listedObjects(kubectl: Kubectl, args: readonly string[]): Promise<NamedObject[]> {
  const output = await kubectl(['get', ...args, '--ignore-not-found', '-o', 'json']);
  if (output.trim() === '') return [];
  const listed = JSON.parse(output) as ListedObject;
  return listed.kind === 'List' ? [...(listed.items ?? [])] : [listed];
}

/** The objects `args` name that exist and that the suite did not create: its user's own. */
export async function foundInPlace(kubectl: Kubectl, args: readonly string[]): Promise<ObjectRef[]> {
  return (await listedObjects(kubectl, args)).filter((o) => !markedBySuite(o)).map(refOf);
}

/**
 * Applies what `args` name, and records in `owned` the objects the suite created, now or in a run
 * interrupted before its teardown: those are its to delete, unlike what was there already (the
 * operator installed by its user, a user's own object of the same name). What it creates it marks.
 */
export async function applyOwned(
  kubectl: Kubectl,
  args: readonly string[],
  owned: ObjectRef[],
): Promise<void> {
  const before = await listedObjects(kubectl, args);
  const existed = new Set(before.map((o) => keyOf(refOf(o))));
  const inPlace = new Set((await foundInPlace(kubectl, args)).map(keyOf));
  try {
    await kubectl(['apply', '--server-side', ...args]);
  } finally {
    // Also after a failed apply: what it created before failing is the suite's as well.
    const created: ObjectRef[] = [];
    for (const ref of await existingObjects(kubectl, args)) {
      if (inPlace.has(keyOf(ref))) continue;
      owned.push(ref);
      if (!existed.has(keyOf(ref))) created.push(ref);
    }
    await markCreated(kubectl, created);
  }
}

/**
 * Kinds a leftover of which is never taken as the suite's, marked or not: deleting one deletes what
 * others keep in it (every custom resource of a CRD, everything in a namespace), and the mark says
 * only that some run created it, not that nobody has used it since (a user keeping an interrupted
 * run's install, another run on the same cluster).
 */
const NEVER_ADOPTED = new Set(['CustomResourceDefinition', 'Namespace']);

function markedBySuite(object: NamedObject): boolean {
  return object.metadata.labels?.[CREATED_BY_SUITE] === 'true' && !NEVER_ADOPTED.has(object.kind);
}

async function markCreated(kubectl: Kubectl, refs: readonly ObjectRef[]): Promise<void> {
  if (refs.length === 0) return;
  await kubectl(['label', '--overwrite', '-f', '-', `${CREATED_BY_SUITE}=true`], listOf(refs));
}

/** Deletes `refs`, the last created first, waiting at most `timeout` (kubectl's form) for them to go. */
export async function deleteObjects(
  kubectl: Kubectl,
  refs: readonly ObjectRef[],
  timeout = DELETE_TIMEOUT,
): Promise<void> {
  if (refs.length === 0) return;
  await kubectl(
    ['delete', '--ignore-not-found', '--wait', `--timeout=${timeout}`, '-f', '-'],
    listOf([...refs].reverse()),
  );
}

/**
 * Deletes the suite's custom resources while the manager still runs to finalize them. One it did not
 * finalize in time (it may never have started) loses its finalizers, so that deleting the CRD next
 * does not wait on it forever; the error still says so.
 */
export async function deleteFinalized(
  kubectl: Kubectl,
  refs: readonly ObjectRef[],
  timeout = DELETE_TIMEOUT,
): Promise<void> {
  try {
    await deleteObjects(kubectl, refs, timeout);
  } catch (err) {
    for (const ref of refs) await releaseFinalizers(kubectl, ref);
    const message = 'the manager did not finalize the suite’s objects in time: their finalizers were removed';
    throw new Error(message, { cause: err });
  }
}

async function releaseFinalizers(kubectl: Kubectl, ref: ObjectRef): Promise<void> {
  const patch = JSON.stringify({ metadata: { finalizers: null } });
  await kubectl(['patch', '--type=merge', '-p', patch, '-f', '-'], listOf([ref])).catch((err: unknown) => {
    if (!String(err).includes('NotFound')) throw err;
  });
}

function listOf(refs: readonly ObjectRef[]): string {
  const items = refs.map(({ apiVersion, kind, namespace, name }) => ({
    apiVersion,
    kind,
    metadata: { name, namespace },
  }));
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
}

function keyOf(ref: ObjectRef): string {
  return `${ref.apiVersion}/${ref.kind}/${ref.namespace ?? ''}/${ref.name}`;
}
