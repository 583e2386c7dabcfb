import { before } from 'node:test';
import { suiteEnvironment, type SuiteEnvironment } from '../../support/suite-environment.ts';
import { widgetsCrd } from '../controller/support.ts';

/**
 * Registers the enclosing suite's before and after: an API server with the Widget CRD (and
 * `apiServerArgs`) whose namespace `namespace` exists, stopped after the suite. What it returns is
 * there once the suite's tests run. An after the suite registers before this one runs before the
 * API server stops.
 */
export function ringEnvironment(namespace: string, apiServerArgs: readonly string[] = []): SuiteEnvironment {
  const api = suiteEnvironment({ crdPaths: [widgetsCrd], apiServerArgs });
  before(async () => {
    await api.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  });
  return api;
}
