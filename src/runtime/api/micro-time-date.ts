/**
 * metav1.MicroTime: a Date written with microseconds (`2026-01-02T15:04:05.123000Z`), as Lease and
 * events.k8s.io Event times must be. The same shape as client-node's V1MicroTime, defined here so
 * that the runtime needs nothing of client-node at run time.
 */
export class MicroTimeDate extends Date {
  override toISOString(): string {
    return `${super.toISOString().slice(0, -1)}000Z`;
  }
}
