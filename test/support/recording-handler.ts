import type { KubeObject } from '../../src/runtime/api/kube-object.ts';
import type { EventHandler } from '../../src/runtime/cache/event-handler.ts';

/** One event an informer delivered, by object name. */
export interface RecordedEvent {
  readonly type: 'add' | 'update' | 'delete';
  readonly name: string;
  readonly old?: KubeObject;
  readonly obj: KubeObject;
  readonly initial?: boolean;
  readonly finalStateUnknown?: boolean;
}

/** An event handler that keeps every event it is given, in order. */
export class RecordingHandler implements EventHandler<KubeObject> {
  readonly events: RecordedEvent[] = [];

  onAdd(obj: KubeObject, initial: boolean): void {
    this.events.push({ type: 'add', name: nameOf(obj), obj, initial });
  }

  onUpdate(old: KubeObject, obj: KubeObject): void {
    this.events.push({ type: 'update', name: nameOf(obj), old, obj });
  }

  onDelete(obj: KubeObject, finalStateUnknown: boolean): void {
    this.events.push({ type: 'delete', name: nameOf(obj), obj, finalStateUnknown });
  }

  /** The events of one object. */
  of(name: string): RecordedEvent[] {
    return this.events.filter((e) => e.name === name);
  }

  /** Whether an event of `type` for `name` arrived. */
  saw(type: RecordedEvent['type'], name: string): boolean {
    return this.events.some((e) => e.type === type && e.name === name);
  }
}

function nameOf(obj: KubeObject): string {
  return obj.metadata?.name ?? '';
}
