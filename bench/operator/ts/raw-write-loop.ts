import './heap-peak.ts';
import { parseArgs } from 'node:util';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { loadRestConfig } from '../../../src/runtime/config/load-rest-config.ts';
import { DeploymentKind, ServiceKind } from '../../../src/runtime/client/kinds.ts';
import { objectKey, objectRef } from '../../../src/runtime/client/object-key.ts';
import { setControllerReference } from '../../../src/runtime/owner/owner-references.ts';
import { shapeDeployment, shapeService, shapeStatus } from './webapp-children.ts';
import { WebAppKind, type WebApp } from './webapp.ts';

// The raw write loop in TypeScript: the writes the operator ends up issuing per WebApp (create
// Deployment, create Service, update status), with no cache, watch or queue. One list of the
// namespace's WebApps, then `--concurrency` workers. Usage:
// node raw-write-loop.ts --namespace NS [--concurrency 10]

async function writeChildrenAndStatus(client: Client, app: WebApp): Promise<void> {
  const key = objectKey(app);
  const deploy = objectRef(DeploymentKind, key);
  shapeDeployment(app, deploy);
  setControllerReference(app, deploy);
  await client.create(deploy);
  const service = objectRef(ServiceKind, key);
  shapeService(app, service);
  setControllerReference(app, service);
  await client.create(service);
  shapeStatus(app, 0);
  await client.status().update(app);
}

const { values } = parseArgs({
  options: { namespace: { type: 'string' }, concurrency: { type: 'string', default: '10' } },
});
const client = newClient({ kubeConfig: loadRestConfig() });
const listed = await client.listAll(WebAppKind, { namespace: values.namespace ?? 'default' });
// List items carry no apiVersion and kind; owner references and writes need them.
const apps = listed.map((app) => ({ ...app, apiVersion: WebAppKind.apiVersion, kind: WebAppKind.kind }));
const worker = async (): Promise<void> => {
  for (let app = apps.pop(); app; app = apps.pop()) await writeChildrenAndStatus(client, app);
};
await Promise.all(Array.from({ length: Number(values.concurrency) }, worker));
