/**
 * The DNS name shapes Kubernetes validates names against (k8s.io/apimachinery's validation package).
 * Each function returns the reasons a value does not fit, empty when it does, so that callers can
 * phrase one error per rule.
 */

const LABEL_MAX = 63;
const SUBDOMAIN_MAX = 253;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** Why `value` is not a DNS-1123 label (`my-name`): lower-case alphanumerics and '-', at most 63. */
export function dns1123LabelProblems(value: string): string[] {
  return problems(value, LABEL_MAX, DNS1123_LABEL.test(value), [
    "must consist of lower-case letters, digits and '-', and start and end with a letter or digit",
  ]);
}

/** Why `value` is not a DNS-1123 subdomain (`example.org`): dot-separated labels, at most 253. */
export function dns1123SubdomainProblems(value: string): string[] {
  const fits = value.split('.').every((label) => DNS1123_LABEL.test(label));
  return problems(value, SUBDOMAIN_MAX, fits, [
    "must consist of lower-case letters, digits, '-' and '.', and each dot-separated part must start and end with a letter or digit",
  ]);
}

/** Why `value` is not a DNS-1035 label (`webapps`): a DNS-1123 label that starts with a letter. */
export function dns1035LabelProblems(value: string): string[] {
  return problems(value, LABEL_MAX, DNS1035_LABEL.test(value), [
    "must consist of lower-case letters, digits and '-', start with a letter and end with a letter or digit",
  ]);
}

function problems(value: string, max: number, fitsShape: boolean, shapeProblem: readonly string[]): string[] {
  return [
    ...(value.length > max ? [`must be no more than ${max} characters`] : []),
    ...(fitsShape ? [] : shapeProblem),
  ];
}
