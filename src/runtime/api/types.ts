import type { V1Condition, V1ObjectMeta } from '@kubernetes/client-node';
import type { Json } from './json.ts';

/*
 * Names for the Go types that have no TypeScript counterpart. At run time they are plain numbers,
 * strings and objects; `tsoperator manifests` recognises them by name (imported from the runtime)
 * and writes the schema controller-gen writes for the Go type.
 */

/** An integer of no declared size (Go's `int`): `type: integer`, without a format. */
export type int = number;
/** A 32-bit integer: `type: integer, format: int32`. */
export type int32 = number;
/** A 64-bit integer: `type: integer, format: int64`. */
export type int64 = number;
/** Bytes as base64 text (Go's `[]byte`): `type: string, format: byte`. */
export type Bytes = string;
/**
 * Any JSON object, kept as written (runtime.RawExtension), such as an embedded manifest:
 * `type: object, x-kubernetes-preserve-unknown-fields: true`.
 */
export type RawExtension = object;
/** A resource quantity such as `500m` or `2Gi`: int-or-string with the quantity pattern. */
export type Quantity = string | number;
/** An integer or a string, such as a port number or name: `x-kubernetes-int-or-string`. */
export type IntOrString = string | number;
/** An RFC 3339 timestamp (metav1.Time): `type: string, format: date-time`. */
export type Time = string;
/** An RFC 3339 timestamp with microseconds (metav1.MicroTime): `format: date-time`. */
export type MicroTime = string;
/** A Go duration string such as `1h30m` (metav1.Duration): `type: string`. */
export type Duration = string;
/**
 * The object metadata of a kind: `metadata?: ObjectMeta`. Its timestamps (`creationTimestamp`,
 * `deletionTimestamp`, managedFields' `time`) are RFC 3339 strings, as read from the API server.
 */
export type ObjectMeta = Json<V1ObjectMeta>;
/**
 * A status condition (metav1.Condition), with controller-gen's schema for it. `lastTransitionTime`
 * is an RFC 3339 string, as read from the API server and as `setCondition` writes it.
 */
export type Condition = Json<V1Condition>;
