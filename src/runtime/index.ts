/**
 * The tsoperator runtime: what a reconciler author uses every day. Internals stay in their folders.
 */

/** A reconcile request: `{ namespace, name }` of one object. */
export { type Request, requestKey, requestFromKey } from './reconcile/request.ts';
/** What a reconcile asks for next: `done()`, `requeue()`, `requeueAfter(ms)`. */
export { type Result, done, requeue, requeueAfter, seconds } from './reconcile/result.ts';
/** An error that is not retried. */
export { TerminalError, isTerminalError } from './reconcile/terminal-error.ts';
/** The interface a controller's reconciler implements. */
export { type Reconciler } from './reconcile/reconciler.ts';
/** What a Result means for the request: `done`, `backoff` or `after` a delay; one meaning for the controller and `finalize`. */
export { requeueOf, type RequeueDecision } from './reconcile/requeue-decision.ts';
/** The logger of the running reconcile, from its signal: `loggerFrom(signal).info(...)`, as `log.FromContext(ctx)`. */
export { loggerFrom } from './reconcile/reconcile-logger.ts';
/** Structured JSON logging. */
export { type Logger, type LogLevel, createLogger } from './log/logger.ts';
/** The registry served on /metrics. */
export { metricsRegistry } from './metrics/registry.ts';
/** A work queue with client-go's guarantees: de-duplication, one worker per key, delays, rate limits, priorities. */
export { Workqueue, type WorkqueueOptions } from './workqueue/workqueue.ts';
/** What `Workqueue.get` resolves to: `{ shutdown: false, key, priority }` or `{ shutdown: true }`. */
export { type QueueItem } from './workqueue/queue-item.ts';
/** Options of an add (`priority`), and the low priority of initial-list events. */
export { type AddOptions, LOW_PRIORITY } from './workqueue/add-options.ts';
/** Requeue delays: the controllers' default (5 ms → 1000 s per key, 10 qps overall) and its parts. */
export { type RateLimiter } from './workqueue/rate-limiter.ts';
export { defaultControllerRateLimiter } from './workqueue/default-controller-rate-limiter.ts';
export { ItemExponentialFailureRateLimiter } from './workqueue/item-exponential-failure-rate-limiter.ts';
export { ItemFastSlowRateLimiter } from './workqueue/item-fast-slow-rate-limiter.ts';
export { BucketRateLimiter } from './workqueue/bucket-rate-limiter.ts';
export { MaxOfRateLimiter } from './workqueue/max-of-rate-limiter.ts';
/** Types for API definitions: `int32`, `int64`, `int`, `Bytes`, `Quantity`, `IntOrString`, `Time`, `RawExtension`, `ObjectMeta`, `Condition`, ... */
export type {
  Bytes,
  Condition,
  Duration,
  IntOrString,
  MicroTime,
  ObjectMeta,
  Quantity,
  RawExtension,
  Time,
  int,
  int32,
  int64,
} from './api/types.ts';
/**
 * Timestamps are strings: what the client, the cache and handlers return is the API server's JSON,
 * `Json<T>`, in which every `Date` of a client-node model is an RFC 3339 string (read it with
 * `Date.parse(t)` or `new Date(t)`); what writes and createOrUpdate's mutate function take is
 * `JsonInput<T>`, in which it may be a `Date` or a string.
 *
 * @example
 * ```ts
 * const job = await client.get(JobKind, { namespace: 'default', name: 'nightly' });
 * const started = job?.status?.startTime; // string | undefined
 * const ranMs = started === undefined ? 0 : Date.now() - Date.parse(started);
 * ```
 */
export type { Json, JsonInput } from './api/json.ts';
/** Any object the runtime takes, read (string timestamps) or built from client-node's models (Dates). */
export type { KubeObject } from './api/kube-object.ts';
/** A Date as metav1.Time writes it (RFC 3339, to the second), for `Time` fields of your own types. */
export { formatTime } from './api/format-time.ts';
/** Kinds described once: `defineKind<T>({ apiVersion, kind, plural, namespaced })`, and the registry writes look kinds up in. */
export { type Kind, type KindDefinition, defineKind, KindRegistry, kindRegistry } from './client/kind.ts';
/** Kubernetes' own kinds, typed with client-node's models: `PodKind`, `DeploymentKind`, `LeaseKind`, `EventKind`, ... */
export * from './client/kinds.ts';
/** The client: typed get/list/create/update/patch/apply/delete, `status()`, `direct()`; reads through the cache. */
export { Client, newClient, type ClientOptions, type StatusWriter } from './client/client.ts';
/** Readers: the client, the cache, and `client.direct()` (the API server). */
export { type Reader } from './client/api-reader.ts';
/** Keys of objects: `{ namespace, name }`, `objectKey(obj)`, and `objectRef(kind, key)` for writes that need no body. */
export { type ObjectKey, objectKey, objectRef, keyString } from './client/object-key.ts';
/** Options of the client's verbs, and a list page. */
export type {
  DeleteOptions,
  GetOptions,
  ListOptions,
  ObjectList,
  PatchOptions,
  WriteOptions,
} from './client/options.ts';
/** Patches: JSON merge, JSON patch, strategic merge, and the merge patch between two versions of an object. */
export {
  type Patch,
  type JsonPatchOperation,
  mergePatch,
  jsonPatch,
  strategicMergePatch,
  mergePatchFrom,
} from './client/patch.ts';
/** A request to the API server that outlived its timeout (`requestTimeoutMs`, default 30 s), and how to bound it. */
export { RequestTimeoutError, isRequestTimeout } from './client/request-timeout-error.ts';
/** A request whose connection was found dead before its answer; a write is not sent again. */
export { ConnectionLostError, isConnectionLost } from './client/connection-lost-error.ts';
export type { TransportOptions } from './client/transport-options.ts';
/** Typed API errors and their predicates, as client-go's apierrors. */
export {
  ApiError,
  type Status,
  ignoreNotFound,
  isAlreadyExists,
  isBadRequest,
  isConflict,
  isForbidden,
  isGone,
  isInternalError,
  isInvalid,
  isNotFound,
  isServiceUnavailable,
  isTimeout,
  isTooManyRequests,
  isUnauthorized,
} from './client/api-error.ts';
/** Runs a read-modify-write again on Conflict, as client-go's retry.RetryOnConflict. */
export { retryOnConflict, type RetryOptions } from './client/retry-on-conflict.ts';
/** How the runtime reaches the API server; `transportFor(restConfig)` is the default. */
export { type Transport, type RestRequest, transportFor } from './client/transport.ts';
/** Where the API server is and who to be: kubeconfig files, in-cluster, token files, exec plugins. */
export { loadRestConfig, type LoadRestConfigOptions } from './config/load-rest-config.ts';
export {
  type RestConfig,
  type Credentials,
  type RequestCredentials,
  type ClientCertificate,
} from './config/rest-config.ts';
export { type RestConfigSource } from './config/rest-config-source.ts';
export { KubeconfigError } from './config/kubeconfig-file.ts';
/** The informer cache: shared informers per kind, field indexes, reads of copies. */
export { Cache, newCache, type CacheOptions, type KindCacheOptions } from './cache/cache.ts';
/** One kind's shared informer: `addEventHandler`, `hasSynced`, `waitForSync`, `addIndex`. */
export { SharedInformer } from './cache/informer.ts';
/** A mutable deep copy of a JSON object, as Go's DeepCopy (what cached reads return). */
export { cloneJson } from './cache/copy-on-read.ts';
/** What informers tell handlers: add, update (old and new), delete. */
export { type EventHandler, type HandlerRegistration } from './cache/event-handler.ts';
/** Index functions of the cache's store. */
export { type IndexFunc } from './cache/store.ts';
/** Transforms applied before objects are cached; `stripManagedFields` is the default. */
export { type Transform, stripManagedFields } from './cache/transform.ts';
/** The manager: client, cache, metrics and probes, leader election, and the controllers it runs. */
export { Manager } from './manager/manager.ts';
/** Why `start` rejected: the lease was lost, the caches did not sync in time, the drain outlived its timeout. */
export { LeaderElectionLostError } from './leader/leader-election-lost-error.ts';
export { CacheSyncTimeoutError } from './manager/cache-sync-timeout-error.ts';
export { ApiServerUnreachableError } from './manager/api-server-unreachable-error.ts';
export { GracefulShutdownTimeoutError } from './manager/controller-group.ts';
export { type ManagerOptions } from './manager/manager-options.ts';
/** Sharded controllers across replicas: shard Leases, a hash ring, the sharder's labels, or the API server's shard selector. */
export { type ShardingOptions } from './sharding/sharding-options.ts';
export { shardLabel, drainLabel, RING_LABEL } from './sharding/shard-labels.ts';
export { leadingShard } from './sharding/leading-shard.ts';
export { HashRing } from './sharding/hash-ring.ts';
export { shardAssignmentPath } from './sharding/shard-assignment-webhook.ts';
export {
  shardAssignmentWebhookConfiguration,
  type ShardAssignmentWebhookOptions,
} from './sharding/shard-assignment-webhook-configuration.ts';
/** Start-up stopped because RBAC denies what the controllers need; the message lists the markers to add. */
export { MissingPermissionsError, type Permission } from './manager/permission-check.ts';
/** Declares a controller: `mgr.controller().for(Kind).owns(Kind).watches(Kind, handler).complete(reconciler)`. */
export {
  ControllerBuilder,
  type WatchOptions,
  type OwnsOptions,
  type BuilderControllerOptions,
} from './builder/controller-builder.ts';
/** A running controller (its `queue` and `name`), as `complete` returns it. */
export { Controller } from './controller/controller.ts';
/** What happened to an object, as predicates and handlers see it. */
export { type ObjectEvent } from './event/object-event.ts';
/** Filters events: true lets one through. */
export { type Predicate } from './predicate/predicate.ts';
/** Handlers: which requests an event causes. `enqueueForOwner` is what `owns` uses; `enqueueFromMap` maps related objects. */
export { type Handler } from './handler/handler.ts';
export { enqueueForObject } from './handler/enqueue-for-object.ts';
export { enqueueForOwner, type EnqueueForOwnerOptions } from './handler/enqueue-for-owner.ts';
export { enqueueFromMap } from './handler/enqueue-from-map.ts';
/** Create or bring up to date: read, mutate, then create / update / patch only what changed. */
export { createOrUpdate, createOrPatch } from './controllerutil/create-or-update.ts';
export {
  type OperationResult,
  type MutationOutcome,
  type MutateFn,
} from './controllerutil/operation-result.ts';
/** Time as the runtime sees it; tests pass a `FakeClock` and move it with `advance(ms)`. */
export { type Clock, systemClock } from './clock/clock.ts';
export { FakeClock } from './clock/fake-clock.ts';
/** Leader election on a coordination.k8s.io/v1 Lease, as client-go's (15 s lease, 10 s renew deadline, 2 s retry). */
export { LeaderElector, type LeadershipEnd } from './leader/leader-elector.ts';
export { type LeaderElectionOptions, type LeaderCallbacks } from './leader/leader-election-options.ts';
export { leaseLock, type LeaseLock } from './leader/lease-lock.ts';
/** /healthz and /readyz with named checks (`addHealthzCheck`, `addReadyzCheck`); a check fails by throwing. */
export { HealthProbes, type ProbeServerOptions } from './health/health-probes.ts';
export { type HealthChecker, ping } from './health/health-checker.ts';
/** Serves `metricsRegistry` (plus Node process metrics) on /metrics. */
export { startMetricsServer, type MetricsServerOptions } from './metrics/metrics-server.ts';
/** Serves a handler only to callers the API server authenticates (TokenReview) and authorizes (SubjectAccessReview), as the secure /metrics does. */
export { withAuthenticationAndAuthorization } from './auth/with-authentication-and-authorization.ts';
export { type DelegatedAuthOptions } from './auth/delegated-auth-options.ts';
/** What the logger writes in place of credentials, and the JSON replacer that does it, for output of your own. */
export { REDACTED, redactingReplacer, redactText } from './log/redact.ts';
/** Status conditions with metav1.Condition semantics: `setCondition(obj, { type, status, reason })` and friends. */
export {
  type ConditionInput,
  type ConditionStatus,
  setStatusCondition,
  findStatusCondition,
  removeStatusCondition,
  isStatusConditionTrue,
  isStatusConditionFalse,
} from './conditions/conditions.ts';
export { setCondition, type ObjectWithConditions } from './conditions/object-conditions.ts';
/** Owner references: `setControllerReference(owner, child)` before creating a child the controller `owns`. */
export {
  setControllerReference,
  setOwnerReference,
  removeOwnerReference,
  hasControllerReference,
  getControllerOf,
  type OwnerType,
} from './owner/owner-references.ts';
export { AlreadyOwnedError } from './owner/already-owned-error.ts';
/** Predicates: `generationChanged` (ignore status-only writes), labels, annotations, resource version, selectors, and/or/not. */
export {
  generationChanged,
  resourceVersionChanged,
  labelsChanged,
  annotationsChanged,
} from './predicate/changed-predicates.ts';
export { labelSelectorPredicate } from './predicate/label-selector-predicate.ts';
export { and, or, not } from './predicate/combinators.ts';
/** Events on events.k8s.io/v1: `recorder.event(obj, 'Warning', reason, action, note)`, de-duplicated and rate-limited. */
export { type EventRecorder, type EventType } from './events/event-recorder.ts';
export { ApiEventRecorder } from './events/api-event-recorder.ts';
export { type EventRecorderOptions } from './events/event-recorder-options.ts';
/** Finalizers: `finalize(client, obj, name, { apply, cleanup })`, and add / remove / contains on objects. */
export { finalize, type FinalizerSteps } from './finalizer/finalize.ts';
export { addFinalizer, removeFinalizer, containsFinalizer, isBeingDeleted } from './finalizer/finalizers.ts';

/** Webhooks: the manager's `webhookServer` serves defaulters, validators and conversions. */
export { WebhookServer, type WebhookClientConfig } from './webhook/webhook-server.ts';
export { type WebhookServerOptions } from './webhook/webhook-server-options.ts';
export { type CustomDefaulter } from './webhook/defaulter.ts';
export { type CustomValidator, type Warnings } from './webhook/validator.ts';
export { ValidationError, type FieldError, type FieldErrorType } from './webhook/validation-error.ts';
export { type SpokeConversion, type SpokeConversions, ConversionError } from './webhook/conversion.ts';
export { type AdmissionRequest } from './webhook/admission-review.ts';
export { pointAtWebhookServer, type WebhookTarget } from './webhook/local-webhook-configuration.ts';
/** A handler for `webhookServer.register(path, handler)`: any admission webhook, answered by hand. */
export {
  type AdmissionHandler,
  type AdmissionOperation,
  type AdmissionResponse,
} from './webhook/admission-review.ts';
/** The paths controller-runtime serves a kind's webhooks on: `/mutate-<group>-<version>-<kind>`, `/validate-...`. */
export { mutatePath, validatePath } from './webhook/webhook-paths.ts';
/** For `npm start` outside the cluster: point the generated webhook configurations at this process. */
export { installLocalWebhooks } from './webhook/install-local-webhooks.ts';
