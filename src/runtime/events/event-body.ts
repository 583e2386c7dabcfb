import type { EventsV1Event, V1ObjectReference } from '@kubernetes/client-node';
import type { KubeObject } from '../api/kube-object.ts';
import { MicroTimeDate } from '../api/micro-time-date.ts';
import type { EventType } from './event-recorder.ts';

/** What one recorded event says, before it is written. */
export interface EventFacts {
  readonly regarding: KubeObject;
  readonly related: KubeObject | undefined;
  readonly type: EventType;
  readonly reason: string;
  readonly action: string;
  readonly note: string;
}

/** The API server refuses notes over 1 kB. */
const MAX_NOTE_LENGTH = 1024;

/** Events that say the same thing about the same object share a key, and so a series. */
export function seriesKey(facts: EventFacts): string {
  const { regarding, related, type, reason, action, note } = facts;
  return JSON.stringify([
    referenceKey(regarding),
    related && referenceKey(related),
    type,
    reason,
    action,
    note,
  ]);
}

/** The rate limit is per object: its uid, or its kind and name when it has none yet. */
export function referenceKey(object: KubeObject): string {
  const m = object.metadata;
  return m?.uid ?? `${object.apiVersion ?? ''}/${object.kind ?? ''}/${m?.namespace ?? ''}/${m?.name ?? ''}`;
}

/** Who writes an event, when, and its unique timestamp in nanoseconds (which names it, as client-go's). */
export interface EventOrigin {
  readonly now: number;
  readonly nanos: bigint;
  readonly reportingController: string;
  readonly reportingInstance: string;
}

/** A new events.k8s.io/v1 Event; events about cluster-scoped objects live in `default`. */
export function newEvent(facts: EventFacts, origin: EventOrigin): EventsV1Event {
  const regarding = objectReference(facts.regarding);
  const event: EventsV1Event = {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: {
      name: `${regarding.name ?? 'object'}.${origin.nanos.toString(16)}`,
      namespace: regarding.namespace || 'default',
    },
    eventTime: new MicroTimeDate(origin.now),
    type: facts.type,
    reason: facts.reason,
    action: facts.action,
    note: facts.note.length > MAX_NOTE_LENGTH ? facts.note.slice(0, MAX_NOTE_LENGTH) : facts.note,
    regarding,
    reportingController: origin.reportingController,
    reportingInstance: origin.reportingInstance,
  };
  if (facts.related) event.related = objectReference(facts.related);
  return event;
}

function objectReference(object: KubeObject): V1ObjectReference {
  const m = object.metadata ?? {};
  const ref: V1ObjectReference = {
    apiVersion: object.apiVersion ?? '',
    kind: object.kind ?? '',
    name: m.name ?? '',
  };
  if (m.namespace) ref.namespace = m.namespace;
  if (m.uid) ref.uid = m.uid;
  if (m.resourceVersion) ref.resourceVersion = m.resourceVersion;
  return ref;
}
