import { after, before } from 'node:test';
import { startEnvironment, type Environment, type EnvironmentOptions } from '../../src/envtest/index.ts';
import { newClient, type Client } from '../../src/runtime/client/client.ts';

/** The API server of a suite, and a client of it. */
export interface SuiteEnvironment {
  readonly env: Environment;
  readonly client: Client;
}

/**
 * Registers the enclosing suite's (or file's) before and after: an API server started with
 * `options`, stopped after the suite. What it returns is there once the suite's tests run. An after
 * the suite registers before this one runs before the API server stops.
 */
export function suiteEnvironment(options: EnvironmentOptions = {}): SuiteEnvironment {
  let started: SuiteEnvironment | undefined;
  before(async () => {
    const env = await startEnvironment(options);
    started = { env, client: newClient({ kubeConfig: env.kubeConfig }) };
  });
  after(async () => {
    await started?.env.stop();
  });
  const ready = (): SuiteEnvironment => {
    if (!started) throw new Error('the API server is there once the suite’s before has run');
    return started;
  };
  return {
    get env() {
      return ready().env;
    },
    get client() {
      return ready().client;
    },
  };
}
