import { isDeepStrictEqual } from 'node:util';
import { cloneJson } from '../../../src/runtime/cache/copy-on-read.ts';
import type { Client } from '../../../src/runtime/client/client.ts';
import { DeploymentKind, ServiceKind } from '../../../src/runtime/client/kinds.ts';
import { createOrUpdate } from '../../../src/runtime/controllerutil/create-or-update.ts';
import type { Manager } from '../../../src/runtime/manager/manager.ts';
import { setControllerReference } from '../../../src/runtime/owner/owner-references.ts';
import type { Reconciler } from '../../../src/runtime/reconcile/reconciler.ts';
import type { Request } from '../../../src/runtime/reconcile/request.ts';
import { done, type Result } from '../../../src/runtime/reconcile/result.ts';
import { shapeDeployment, shapeService, shapeStatus } from './webapp-children.ts';
import { WebAppKind } from './webapp.ts';

/**
 * The WebApp operator as the Go peer's reconciler.go writes it: createOrUpdate of the owned
 * Deployment and Service, then the status, written only when it changed.
 */
export class WebAppReconciler implements Reconciler {
  readonly #client: Client;

  constructor(client: Client) {
    this.#client = client;
  }

  setup(mgr: Manager, maxConcurrentReconciles: number): void {
    mgr
      .controller(WebAppKind)
      .owns(DeploymentKind)
      .owns(ServiceKind)
      .withOptions({ maxConcurrentReconciles })
      .complete(this);
  }

  async reconcile(req: Request, signal: AbortSignal): Promise<Result> {
    const app = await this.#client.get(WebAppKind, req, { signal });
    if (!app) return done();
    const { object: deploy } = await createOrUpdate(this.#client, DeploymentKind, req, (d) => {
      shapeDeployment(app, d);
      setControllerReference(app, d);
    });
    await createOrUpdate(this.#client, ServiceKind, req, (s) => {
      shapeService(app, s);
      setControllerReference(app, s);
    });
    const before = cloneJson(app.status);
    shapeStatus(app, deploy.status?.readyReplicas ?? 0);
    if (!isDeepStrictEqual(before, app.status)) await this.#client.status().update(app, { signal });
    return done();
  }
}
