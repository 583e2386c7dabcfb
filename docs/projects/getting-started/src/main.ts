/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import {
  KubeconfigError,
  Manager,
  WebhookServer,
  createLogger,
  loadRestConfig,
  type RestConfig,
} from './runtime/index.ts';
import { consoleEncoder } from './console-encoder.ts';
import { managerFlagsOrExit } from './manager-flags.ts';
import { MemcachedReconciler } from './controllers/memcached.controller.ts';
// +tsoperator:scaffold:imports

// `--help` lists the flags; they are the flags of a Kubebuilder project's cmd/main.go.
const flags = managerFlagsOrExit(process.argv.slice(2));

const toStderr = (line: string): void => {
  process.stderr.write(line);
};
const logger = createLogger({
  level: flags.logLevel,
  write: flags.logEncoder === 'console' ? consoleEncoder(toStderr) : toStderr,
});

const mgr = await Manager.create({
  kubeConfig: restConfigOrExit(flags.kubeconfig),
  ...(flags.metricsBindAddress ? { metricsBindAddress: flags.metricsBindAddress } : {}),
  metricsSecure: flags.metricsSecure,
  metricsCertPath: flags.metricsCertPath,
  metricsCertName: flags.metricsCertName,
  metricsCertKey: flags.metricsCertKey,
  webhookServer: new WebhookServer({
    port: flags.webhookPort,
    ...(flags.webhookCertPath ? { certDir: flags.webhookCertPath } : {}),
    certName: flags.webhookCertName,
    keyName: flags.webhookCertKey,
    logger: logger.child({ component: 'webhook' }),
  }),
  webhookInstallLocal: flags.webhookInstallLocal ? 'config/webhook/manifests.yaml' : '',
  enableHttp2: flags.enableHttp2,
  healthProbeBindAddress: flags.healthProbeBindAddress,
  // With more than one replica, only the holder of the lease reconciles.
  leaderElection: flags.leaderElect,
  leaderElectionId: 'ca1e5bd6.example.com',
  logger,
});

new MemcachedReconciler(mgr.client, mgr.events).setup(mgr);
// +tsoperator:scaffold:controllers

// Runs until SIGTERM or SIGINT, then drains the controllers and releases the lease. Any other end
// (the lease lost, caches that did not sync, a failed controller, a drain past its timeout) exits 1
// at once, as cmd/main.go does: a reconcile that ignored its signal must not keep the process up.
try {
  await mgr.start();
} catch (err) {
  logger.error('problem running manager', { error: err });
  process.exit(1);
}

// The API server and identity, found as controller-runtime's GetConfig finds them; a missing or
// malformed kubeconfig is a usage error, said in one line.
function restConfigOrExit(kubeconfig: string): RestConfig {
  try {
    return loadRestConfig(kubeconfig ? { kubeconfig } : {});
  } catch (err) {
    if (!(err instanceof KubeconfigError)) throw err;
    // The loader's messages start with `kubeconfig <file>`: given by the flag, they name the flag.
    process.stderr.write(`${kubeconfig ? '--' : ''}${err.message}\n`);
    process.exit(2);
  }
}
