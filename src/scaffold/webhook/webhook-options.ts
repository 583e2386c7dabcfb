import type { ConversionCode } from './conversion-code.ts';
import type { SpokeTest } from './conversion-test-objects.ts';
import type { KindExamples } from './webhook-examples.ts';

/** What `tsoperator create webhook` takes. */
export interface CreateWebhookOptions {
  /** The project folder. */
  readonly dir: string;
  readonly kind: string;
  /** Default: the group of the project's only API of that kind. */
  readonly group?: string;
  /** Default: the version of the project's only API of that kind. */
  readonly version?: string;
  /** A defaulter (mutating webhook). */
  readonly defaulting: boolean;
  /** A validator (validating webhook). */
  readonly validation: boolean;
  /** Conversion between this version (the hub) and each spoke. */
  readonly conversion: boolean;
  /** The versions converted to and from the hub; each needs its API already. */
  readonly spokes: readonly string[];
  /** Regenerate webhook types that exist; files you changed are kept. */
  readonly force: boolean;
}

/** A spoke version as the conversion templates see it. */
export interface SpokeTemplateData {
  readonly version: string;
  /** `WebAppV2`: the spoke's type, imported under this name beside the hub's. */
  readonly typeAlias: string;
  /** `webAppV2Conversion`. */
  readonly conversionName: string;
  readonly types: string;
  /** The spoke's sample: the object the webhook test writes in the spoke version. */
  readonly sample: string;
  readonly conversion: string;
  /** The conversion's code, written against the fields of the hub and the spoke. */
  readonly code: ConversionCode;
  /** The fields the webhook test compares after the round trip; undefined when the versions share none. */
  readonly test: SpokeTest | undefined;
}

/** One version's webhook setup function, which the webhook tests of the kind call. */
export interface KindVersionWebhooks {
  /** `setupWebAppV1Webhooks`. */
  readonly setupName: string;
  /** Its file, `src/webhooks/v1/webapp.webhook.ts`. */
  readonly setup: string;
}

/** The values the webhook templates see. */
export interface WebhookTemplateData {
  readonly kind: string;
  /** `webApp`: the kind in camelCase, for variables. */
  readonly kindCamel: string;
  readonly kindLower: string;
  readonly plural: string;
  readonly version: string;
  /** `demo.example.org`, empty for the bare domain's group. */
  readonly qualifiedGroup: string;
  /**
   * `webapp-v1`, in the webhooks' names (`mwebapp-v1.kb.io`); `ship-webapp-v1` when a kind of the same
   * name and version is in another group, whose webhooks' names it would repeat.
   */
  readonly webhookName: string;
  /** `demo-example-org-v1-webapp`: the end of the webhook paths, as controller-runtime names them. */
  readonly pathSuffix: string;
  readonly namespaced: boolean;
  readonly defaulting: boolean;
  readonly validation: boolean;
  readonly conversion: boolean;
  readonly spokes: readonly SpokeTemplateData[];
  /**
   * Every version of the kind with webhooks, this one included: the test serves them all, as the
   * API server calls each version's webhooks for the others' objects too (matchPolicy Equivalent).
   */
  readonly kindWebhooks: readonly KindVersionWebhooks[];
  /** Whether a version of the kind converts: the test then installs the CRDs converting through it. */
  readonly kindConverts: boolean;
  /** The example default and rule, and the test's objects, from the fields the kind has. */
  readonly examples: KindExamples;
  /** Names at most this long fit in a label value. */
  readonly LABEL_VALUE_MAX_LENGTH: number;
  /** `text` in lines of at most `width` characters, for doc comments. */
  readonly wrap: (text: string, width: number) => string[];
  readonly projectName: string;
  readonly licenseHeader: string;
  readonly paths: WebhookPaths;
  /** The file being rendered. */
  readonly target: string;
  /** The import specifier of a project file (`runtime` for the runtime) from the file being rendered. */
  readonly imp: (projectPath: string) => string;
}

/** Where the files of one kind's webhooks go, relative to the project root. */
export interface WebhookPaths {
  readonly types: string;
  /** The kind version's sample, which the webhook test takes its objects from. */
  readonly sample: string;
  readonly setup: string;
  readonly defaulter: string;
  readonly validator: string;
  readonly test: string;
}
