import { UsageError } from '../errors.ts';
import { dns1123SubdomainProblems } from '../project/dns.ts';

/** A number part of a semantic version: no leading zero, as semver (and OLM) require. */
const NUMBER = '(?:0|[1-9]\\d*)';
const PRE_RELEASE_PART = '(?:0|[1-9]\\d*|\\d*[A-Za-z-][0-9A-Za-z-]*)';
const BUILD_PART = '[0-9A-Za-z-]+';
const SEMVER = new RegExp(
  `^${NUMBER}\\.${NUMBER}\\.${NUMBER}` +
    `(?:-${PRE_RELEASE_PART}(?:\\.${PRE_RELEASE_PART})*)?` +
    `(?:\\+${BUILD_PART}(?:\\.${BUILD_PART})*)?$`,
);

/**
 * The bundle's version, checked as operator-sdk checks `--version`: a strict semantic version
 * (`1.2.3`, `1.2.3-rc.1`), which becomes the CSV's `spec.version` and the suffix of its name. That
 * name must be a DNS-1123 subdomain, or the API server refuses the CSV when OLM creates it: so no
 * build metadata (`+`) and no capitals.
 *
 * @example
 * ```ts
 * parseBundleVersion('0.1.0'); // '0.1.0'
 * ```
 */
export function parseBundleVersion(text: string): string {
  if (SEMVER.test(text)) {
    const problems = dns1123SubdomainProblems(`v${text}`);
    if (problems.length === 0) return text;
    throw new UsageError(
      `--version ${JSON.stringify(text)} cannot end the CSV's name (<package>.v${text}), which ${problems.join(' and ')}: ` +
        'leave out the build metadata ("+...") and write the pre-release in lower case',
    );
  }
  const hint = /^v\d/.test(text)
    ? ` (write ${text.slice(1)}: the CSV's name adds the "v" itself)`
    : ': write MAJOR.MINOR.PATCH, e.g. 0.1.0, without leading zeros';
  throw new UsageError(`--version ${JSON.stringify(text)} is not a semantic version${hint}`);
}
