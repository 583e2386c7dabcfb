import { loadAll } from 'js-yaml';
import type { Diagnostic, SourceLocation } from '../../markers/index.ts';
import { DiagnosticCodes } from '../../markers/index.ts';
import { ApiError } from '../../runtime/client/api-error.ts';
import type { Transport } from '../../runtime/client/transport.ts';
import type { CustomResourceDefinition } from '../crd/index.ts';
import type { SchemaSites } from '../crd/schema-site.ts';
import type { ManifestFile } from '../manifest-generator.ts';
import { refusalLocation } from './refusal-site.ts';

/** The kinds the check sends, and where the API server serves them. */
const RESOURCES: Readonly<Record<string, string>> = {
  CustomResourceDefinition: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
  MutatingWebhookConfiguration: '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
  ValidatingWebhookConfiguration: '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
};

/** A dry run changes nothing; server-side apply makes it a create or an update alike. */
const DRY_RUN_APPLY = '?dryRun=All&fieldManager=tsoperator-check&force=true&fieldValidation=Strict';

export interface ServerDryRunOptions {
  readonly files: readonly ManifestFile[];
  readonly transport: Transport;
  /** Each CRD version's source map, as `generateManifests` fills it. */
  readonly schemaSites: ReadonlyMap<string, SchemaSites>;
}

interface ManifestObject {
  readonly kind?: string;
  readonly metadata?: { readonly name?: string };
}

/**
 * Asks the API server to dry-run (server-side apply, `dryRun=All`) every CRD and webhook
 * configuration, and returns what it refuses, one error per cause: the API server's own message,
 * at the marker that wrote the refused field (a CEL rule, a default) or else at the field, type or
 * file. The API server compiles CEL rules and estimates their cost, checks that schemas are
 * structural and validates defaults against them: what no local check can promise to match.
 */
export async function serverDryRun(options: ServerDryRunOptions): Promise<Diagnostic[]> {
  const diagnostics: Diagnostic[] = [];
  for (const file of options.files) {
    for (const object of loadAll(file.content) as ManifestObject[]) {
      const collection = object?.kind === undefined ? undefined : RESOURCES[object.kind];
      const name = object?.metadata?.name;
      if (collection === undefined || name === undefined) continue;
      try {
        await options.transport.request({
          method: 'PATCH',
          path: `${collection}/${name}${DRY_RUN_APPLY}`,
          body: JSON.stringify(object),
          contentType: 'application/apply-patch+yaml',
        });
      } catch (err) {
        if (!isRefusal(err)) throw err;
        diagnostics.push(...refusals(err, object, file.path, options.schemaSites));
      }
    }
  }
  return diagnostics;
}

/** A 4xx Status from the API server about the object: anything else is a failure to ask. */
function isRefusal(err: unknown): err is ApiError {
  if (!(err instanceof ApiError) || err.status.reason === undefined) return false;
  return err.code >= 400 && err.code < 500 && ![401, 403, 429].includes(err.code);
}

function refusals(
  err: ApiError,
  object: ManifestObject,
  path: string,
  sites: ReadonlyMap<string, SchemaSites>,
): Diagnostic[] {
  const what = `${object.kind} ${object.metadata?.name}`;
  const inFile: SourceLocation = { file: path, line: 1, column: 1 };
  const causes = err.status.details?.causes ?? [];
  if (causes.length === 0)
    return [refusal(`the API server refuses ${what}: ${err.status.message ?? err.message}`, inFile)];
  return causes.map((cause) => {
    const field = cause.field ?? '';
    const at =
      object.kind === 'CustomResourceDefinition'
        ? refusalLocation(object as CustomResourceDefinition, field, (key) => sites.get(key))
        : undefined;
    const message = `the API server refuses ${what}: ${field === '' ? '' : `${field}: `}${cause.message ?? ''}`;
    return refusal(message, at ?? inFile);
  });
}

function refusal(message: string, location: SourceLocation): Diagnostic {
  return { code: DiagnosticCodes.serverRefused, severity: 'error', message, location };
}
