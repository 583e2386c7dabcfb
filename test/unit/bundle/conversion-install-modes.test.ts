import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CsvDocument } from '../../../src/bundle/base-csv.ts';
import { checkConversionInstallModes } from '../../../src/bundle/conversion-install-modes.ts';
import { isTsoperatorError } from '../../../src/errors.ts';

const BASE = 'config/manifests/bases/op.clusterserviceversion.yaml';

function csv(supported: readonly string[], webhookTypes: readonly string[]): CsvDocument {
  const modes = ['OwnNamespace', 'SingleNamespace', 'MultiNamespace', 'AllNamespaces'];
  return {
    metadata: { name: 'op.v0.1.0' },
    spec: {
      installModes: modes.map((type) => ({ type, supported: supported.includes(type) })),
      webhookdefinitions: webhookTypes.map((type, index) => ({ type, generateName: `w${index}.kb.io` })),
    },
  };
}

describe('checkConversionInstallModes', () => {
  it('refuses a conversion webhook in a CSV that supports more than AllNamespaces, as OLM does', () => {
    for (const supported of [['OwnNamespace'], ['OwnNamespace', 'AllNamespaces'], []]) {
      assert.throws(
        () => checkConversionInstallModes(csv(supported, ['ConversionWebhook']), BASE),
        (err: unknown) =>
          isTsoperatorError(err) &&
          err.exitCode === 1 &&
          err.message.includes('w0.kb.io needs a CSV that supports only the AllNamespaces install mode') &&
          err.message.includes(BASE),
        supported.join(),
      );
    }
  });

  it('accepts conversion webhooks with AllNamespaces only, and admission webhooks with any mode', () => {
    checkConversionInstallModes(
      csv(['AllNamespaces'], ['ConversionWebhook', 'MutatingAdmissionWebhook']),
      BASE,
    );
    checkConversionInstallModes(csv(['OwnNamespace'], ['ValidatingAdmissionWebhook']), BASE);
    checkConversionInstallModes(csv(['OwnNamespace'], []), BASE);
  });
});
