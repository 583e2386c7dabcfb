import type { KubeObject } from '../api/kube-object.ts';

/** Normal events say what happened; Warning events say something needs attention. */
export type EventType = 'Normal' | 'Warning';

/**
 * Records events.k8s.io/v1 Events about objects, for `kubectl describe` and `kubectl events`.
 * Recording never blocks or throws: events are written in the background, repeated ones are
 * folded into a series, and floods are dropped.
 *
 * @example
 * ```ts
 * recorder.event(app, 'Warning', 'DeployFailed', 'CreateDeployment', `quota exceeded in ${ns}`);
 * ```
 */
export interface EventRecorder {
  /**
   * @param regarding the object the event is about
   * @param reason why the action was taken, CamelCase (e.g. `ScalingReplicaSet`)
   * @param action what was done or failed, CamelCase (e.g. `Scale`)
   * @param note a human-readable description, at most 1 kB
   * @param related a second object the event involves, if any
   */
  event(
    regarding: KubeObject,
    type: EventType,
    reason: string,
    action: string,
    note: string,
    related?: KubeObject,
  ): void;
}
