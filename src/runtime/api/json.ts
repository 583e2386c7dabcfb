/*
 * Why these two types exist. @kubernetes/client-node's models (V1Job, V1ObjectMeta, V1Condition,
 * ...) type every timestamp as `Date` (client-node's own API classes turn the JSON into Dates), but
 * the runtime never does: what its client and cache return is the API server's JSON, parsed, whose
 * timestamps are RFC 3339 strings. Typed as the models, `job.status.startTime.getTime()` compiles
 * and throws "getTime is not a function" at run time. So the runtime says once what the JSON is:
 *
 * - what it reads is `Json<T>`: each `Date` in `T` (client-node's V1MicroTime, a Date, too) is a
 *   `string`, at any depth; the compiler then refuses `.getTime()` and asks for `Date.parse(t)`.
 * - what it writes takes `JsonInput<T>`: each `Date` may be a `Date` or a `string`, so both an
 *   object read from the API server and a client-node model built in code (a V1DeploymentSpec whose
 *   pod template has a Date creationTimestamp) are accepted. The transport writes a Date as
 *   metav1.Time does (RFC 3339 to the second), a MicroTimeDate with microseconds.
 *
 * Both are deep maps that leave everything else as it is: primitives, `unknown` and `any` (kept,
 * not spread into a union), types without keys (`object`, `{}`), and optional and readonly fields,
 * arrays, tuples and records (the mapped type is homomorphic, so TypeScript keeps their shape).
 * `Json<Json<T>>` is `Json<T>`, and a type without Dates (a CRD written with the runtime's `Time`)
 * maps to a type of the same shape.
 */

/** The values a JSON-shaped map leaves alone. */
type Leaf = string | number | boolean | bigint | symbol | null | undefined;

/**
 * `T` as the API server's JSON carries it: every `Date` in it (client-node's timestamps) is an
 * RFC 3339 `string`, at any depth. What the client, the cache, informers and handlers give you.
 *
 * @example
 * ```ts
 * import type { V1Job } from '@kubernetes/client-node';
 *
 * function runningForMs(job: Json<V1Job>, now: number): number {
 *   const started = job.status?.startTime; // a string, as the API server sent it
 *   return started === undefined ? 0 : now - Date.parse(started);
 * }
 * ```
 */
export type Json<T> = unknown extends T
  ? T
  : T extends Date
    ? string
    : T extends Leaf
      ? T
      : [keyof T] extends [never]
        ? T
        : { [K in keyof T]: Json<T[K]> };

/**
 * `T` as you may write it: every `Date` in it may be a `Date` or an RFC 3339 `string`. Both an
 * object read from the API server (`Json<T>`) and a client-node model built in code fit, so what
 * createOrUpdate's mutate function receives is typed so. A `Date` is written to the second, as
 * metav1.Time is; a metav1.MicroTime field (a Lease's renewTime, an events.k8s.io Event's
 * eventTime) takes exactly six fractional digits, so write it as a string
 * (`2026-01-02T15:04:05.000000Z`): the API server refuses a MicroTime to the second.
 *
 * @example
 * ```ts
 * import type { V1Deployment, V1DeploymentSpec } from '@kubernetes/client-node';
 *
 * function setSpec(deployment: JsonInput<V1Deployment>, spec: V1DeploymentSpec): void {
 *   deployment.spec = spec; // a client-node model, Dates and all
 * }
 * ```
 */
export type JsonInput<T> = unknown extends T
  ? T
  : T extends Date
    ? Date | string
    : T extends Leaf
      ? T
      : [keyof T] extends [never]
        ? T
        : { [K in keyof T]: JsonInput<T[K]> };
