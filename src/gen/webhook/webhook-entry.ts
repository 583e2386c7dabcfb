import type { DiagnosticList } from '../../markers/diagnostic-list.ts';
import { DiagnosticCodes } from '../../markers/diagnostic.ts';
import { applyWebhookPatch } from './webhook-patch.ts';
import type { WebhookMarker } from './webhook-marker.ts';
import type { WebhookClientConfig, WebhookEntry, WebhookRule } from './webhook-manifest.ts';

const OPERATIONS = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT', '*'];
const FAILURE_POLICIES = ['Ignore', 'Fail'];
const MATCH_POLICIES = ['Exact', 'Equivalent'];
const SIDE_EFFECTS = ['None', 'NoneOnDryRun', 'Some'];
const REINVOCATION_POLICIES = ['Never', 'IfNeeded'];

/**
 * The webhook a `+kubebuilder:webhook` marker describes, spelled as the API spells it (values are
 * matched case-insensitively, as controller-gen does), or undefined after reporting why it is not
 * a valid admissionregistration/v1 webhook.
 */
export function webhookEntry(marker: WebhookMarker, diagnostics: DiagnosticList): WebhookEntry | undefined {
  const problems = webhookProblems(marker);
  const clientConfig = webhookClientConfig(marker);
  if (!clientConfig) problems.push('`url` or `path` markers are required and mutually exclusive');
  for (const problem of problems)
    diagnostics.error(DiagnosticCodes.invalidArgumentValue, problem, marker.location);
  if (problems.length > 0 || !clientConfig) return undefined;

  const entry: WebhookEntry = {
    name: marker.name,
    clientConfig,
    rules: [webhookRule(marker)],
    failurePolicy: canonical(marker.failurePolicy, FAILURE_POLICIES) ?? marker.failurePolicy,
    admissionReviewVersions: [...marker.admissionReviewVersions],
  };
  const matchPolicy = canonical(marker.matchPolicy, MATCH_POLICIES);
  if (matchPolicy) entry.matchPolicy = matchPolicy;
  const sideEffects = canonical(marker.sideEffects, SIDE_EFFECTS);
  if (sideEffects) entry.sideEffects = sideEffects;
  if (marker.timeoutSeconds) entry.timeoutSeconds = marker.timeoutSeconds;
  const reinvocationPolicy = canonical(marker.reinvocationPolicy, REINVOCATION_POLICIES);
  if (marker.mutating && reinvocationPolicy) entry.reinvocationPolicy = reinvocationPolicy;
  if (!marker.patch) return entry;
  const patched = applyWebhookPatch(entry, marker.patch, marker.mutating);
  if (typeof patched === 'string') {
    diagnostics.error(DiagnosticCodes.invalidArgumentValue, `patch: ${patched}`, marker.location);
    return undefined;
  }
  return patched;
}

/** What admissionregistration/v1 refuses, checked before anything is written. */
function webhookProblems(marker: WebhookMarker): string[] {
  const problems: string[] = [];
  if (marker.matchPolicy && !canonical(marker.matchPolicy, MATCH_POLICIES)) {
    problems.push(`unknown value "${marker.matchPolicy}" for matchPolicy: use Exact or Equivalent`);
  }
  const sideEffects = canonical(marker.sideEffects, SIDE_EFFECTS);
  if (!sideEffects) problems.push('sideEffects is required: use None or NoneOnDryRun');
  if (sideEffects === 'Some')
    problems.push('sideEffects must not be Some for admissionregistration/v1: use None or NoneOnDryRun');
  const timeout = marker.timeoutSeconds;
  if (timeout && (timeout < 1 || timeout > 30))
    problems.push(`timeoutSeconds must be between 1 and 30, got ${timeout}`);
  for (const version of marker.webhookVersions ?? []) {
    if (version !== 'v1') problems.push(`unsupported webhook version: ${version} (only v1 is supported)`);
  }
  return problems;
}

function webhookClientConfig(marker: WebhookMarker): WebhookClientConfig | undefined {
  if (Boolean(marker.path) === Boolean(marker.url)) return undefined;
  if (marker.url) return { url: marker.url };
  const service: NonNullable<WebhookClientConfig['service']> = {
    name: marker.serviceName || 'webhook-service',
    namespace: marker.serviceNamespace || 'system',
    path: marker.path ?? '',
  };
  if (marker.servicePort !== undefined) service.port = marker.servicePort;
  return { service };
}

function webhookRule(marker: WebhookMarker): WebhookRule {
  const rule: WebhookRule = {};
  if (marker.verbs.length > 0) rule.operations = marker.verbs.map((v) => canonical(v, OPERATIONS) ?? v);
  // "core" is accepted for the core group, which the API spells as the empty string.
  if (marker.groups.length > 0) rule.apiGroups = marker.groups.map((g) => (g === 'core' ? '' : g));
  if (marker.versions.length > 0) rule.apiVersions = [...marker.versions];
  if (marker.resources.length > 0) rule.resources = [...marker.resources];
  return rule;
}

/** The allowed spelling of `value`, compared without regard to case. */
function canonical(value: string | undefined, allowed: readonly string[]): string | undefined {
  if (!value) return undefined;
  return allowed.find((a) => a.toLowerCase() === value.toLowerCase());
}
