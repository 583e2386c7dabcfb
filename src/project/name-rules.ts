import { UsageError } from '../errors.ts';
import { dns1035LabelProblems, dns1123LabelProblems, dns1123SubdomainProblems } from './dns.ts';

/**
 * The rules every name in a project follows, one function per name, each throwing a UsageError that
 * says which rule the value broke and what a valid value looks like.
 */

/** A domain such as `example.org`: a DNS-1123 subdomain. */
export function validateDomain(domain: string): void {
  failOn('domain', domain, dns1123SubdomainProblems(domain), 'a DNS-1123 subdomain, e.g. example.org');
}

/** A group such as `demo`, or empty for the bare domain: a DNS-1123 subdomain. */
export function validateGroup(group: string): void {
  if (group === '') return;
  failOn('group', group, dns1123SubdomainProblems(group), 'a DNS-1123 subdomain, e.g. demo or batch.ops');
}

/** The group joined to the domain (`demo.example.org`) must itself stay a DNS-1123 subdomain. */
export function validateQualifiedGroup(qualifiedGroup: string): void {
  failOn(
    'group with domain',
    qualifiedGroup,
    dns1123SubdomainProblems(qualifiedGroup),
    'a DNS-1123 subdomain of at most 253 characters',
  );
}

/** A version such as `v1` or `v1beta1`: a DNS-1123 label. */
export function validateVersion(version: string): void {
  failOn('version', version, dns1123LabelProblems(version), 'a DNS-1123 label, e.g. v1 or v1beta1');
}

/** A kind such as `WebApp`: an upper-case first letter, and a DNS-1035 label once lower-cased. */
export function validateKind(kind: string): void {
  const problems = dns1035LabelProblems(kind.toLowerCase());
  if (!/^[A-Z]/.test(kind)) problems.unshift('must start with an upper-case letter');
  if (!/^[A-Za-z0-9]*$/.test(kind)) problems.push('must consist of letters and digits only');
  failOn('kind', kind, problems, 'a CamelCase name, e.g. WebApp');
}

/** A plural resource name such as `webapps`: a DNS-1035 label. */
export function validatePlural(plural: string): void {
  failOn('plural', plural, dns1035LabelProblems(plural), 'a lower-case DNS-1035 label, e.g. webapps');
}

/** A project name such as `webapp-operator`: a DNS-1123 label (it names the Deployment and prefixes). */
export function validateProjectName(name: string): void {
  failOn('project name', name, dns1123LabelProblems(name), 'a DNS-1123 label, e.g. webapp-operator');
}

function failOn(what: string, value: string, problems: readonly string[], expected: string): void {
  if (problems.length === 0) return;
  throw new UsageError(`invalid ${what} "${value}": it ${problems.join(' and ')} (expected ${expected})`);
}
