import { UsageError } from '../../errors.ts';
import { findDeployImage, type DeployImageOptions } from '../../project/deploy-image.ts';
import type { ProjectConfig, ResourceConfig } from '../../project/project-config.ts';

/** The port a kind's container listens on when `--image` is given without `--port`. */
export const DEFAULT_CONTAINER_PORT = 8080;

/** What `create api` was asked about running an image; undefined means "not given". */
export interface DeployImageRequest {
  /** The container image the kind's controller runs as a Deployment, e.g. `nginx:1.27`. */
  readonly image?: string;
  /** The port the container listens on. Default: 8080 (with `--image`). */
  readonly port?: number;
  /** The container's command. Default: the image's entrypoint. */
  readonly containerCommand?: readonly string[];
  /** The user id the container runs as. Default: the image's user. */
  readonly runAsUser?: number;
}

/** The options the kind's controller is scaffolded with, and the project recording them. */
export interface ResolvedDeployImage {
  readonly options: DeployImageOptions | undefined;
  readonly project: ProjectConfig;
}

/**
 * Completes `--image` / `--port` against the project: a kind already recorded with an image keeps
 * it (so that `--force` regenerates the same controller), and new options are recorded in PROJECT.
 *
 * @example
 * ```ts
 * const { options, project: next } = resolveDeployImage(project, resource, { image: 'nginx:1.27' }, []);
 * ```
 */
export function resolveDeployImage(
  project: ProjectConfig,
  resource: ResourceConfig,
  request: DeployImageRequest,
  defaultsTaken: string[],
): ResolvedDeployImage {
  const recorded = findDeployImage(project.deployImage ?? [], resource);
  if (request.image === undefined) {
    if (request.port !== undefined) throw new UsageError('--port is the port of --image: give both');
    if (request.containerCommand !== undefined)
      throw new UsageError('--image-container-command is the command of --image: give both');
    if (request.runAsUser !== undefined)
      throw new UsageError('--run-as-user is the user of the --image container: give both');
    return { options: recorded, project };
  }
  checkRunnable(resource);
  if (request.port === undefined) defaultsTaken.push(`port ${DEFAULT_CONTAINER_PORT} (no --port given)`);
  const options: DeployImageOptions = {
    image: request.image,
    containerPort: request.port ?? DEFAULT_CONTAINER_PORT,
    ...(request.containerCommand === undefined ? {} : { containerCommand: request.containerCommand }),
    ...(request.runAsUser === undefined ? {} : { runAsUser: request.runAsUser }),
  };
  const others = (project.deployImage ?? []).filter(
    (r) => !(r.group === resource.group && r.version === resource.version && r.kind === resource.kind),
  );
  const entry = { ...pick(resource), options };
  return { options, project: { ...project, deployImage: [...others, entry] } };
}

function checkRunnable(resource: ResourceConfig): void {
  if (!resource.api || resource.external === true) {
    throw new UsageError(
      "--image needs the kind's types: it adds image, replicas and port to its spec; drop --resource=false",
    );
  }
  if (!resource.api.namespaced) {
    throw new UsageError(
      "--image makes a Deployment and a Service in the kind's namespace: drop --namespaced=false",
    );
  }
  if (resource.controller !== true)
    throw new UsageError('--image makes a controller: drop --controller=false');
}

function pick(resource: ResourceConfig): Pick<ResourceConfig, 'group' | 'domain' | 'version' | 'kind'> {
  return { group: resource.group, domain: resource.domain, version: resource.version, kind: resource.kind };
}
