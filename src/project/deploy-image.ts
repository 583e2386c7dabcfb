import { TsoperatorError } from '../errors.ts';
import type { ResourceConfig } from './project-config.ts';

/**
 * The plugin key under which PROJECT records the kinds `create api --image` scaffolded, as
 * Kubebuilder's deploy-image plugin records its own under `deploy-image.go.kubebuilder.io/v1-alpha`.
 */
export const DEPLOY_IMAGE_PLUGIN = 'deploy-image.typescript.tsoperator.io/v1-alpha';

/** What `create api --image --port` was given for one kind. */
export interface DeployImageOptions {
  /** The container image the kind's Deployment runs, e.g. `nginx:1.27`. */
  readonly image: string;
  /** The port the container listens on and the Service exposes. */
  readonly containerPort: number;
  /** The container's command, instead of the image's entrypoint (Kubebuilder's containerCommand). */
  readonly containerCommand?: readonly string[];
  /** The user id the container runs as, never root (Kubebuilder's runAsUser). */
  readonly runAsUser?: number;
}

/** One kind whose controller runs an image: its group/version/kind and the options it was made with. */
export interface DeployImageResource {
  readonly group: string;
  readonly domain: string;
  readonly version: string;
  readonly kind: string;
  readonly options: DeployImageOptions;
}

/** The options recorded for a resource, if it was scaffolded with `--image`. */
export function findDeployImage(
  resources: readonly DeployImageResource[],
  resource: Pick<ResourceConfig, 'group' | 'version' | 'kind'>,
): DeployImageOptions | undefined {
  return resources.find(
    (r) => r.group === resource.group && r.version === resource.version && r.kind === resource.kind,
  )?.options;
}

/** The plugin's section of PROJECT, keys in Kubebuilder's order (its port is a string, as there). */
export function deployImageDocument(resources: readonly DeployImageResource[]): Record<string, unknown> {
  return {
    resources: resources.map((r) => ({
      domain: r.domain,
      group: r.group,
      kind: r.kind,
      options: {
        ...(r.options.containerCommand ? { containerCommand: r.options.containerCommand.join(',') } : {}),
        containerPort: String(r.options.containerPort),
        image: r.options.image,
        ...(r.options.runAsUser === undefined ? {} : { runAsUser: String(r.options.runAsUser) }),
      },
      version: r.version,
    })),
  };
}

/** The plugin's section of PROJECT read back; `source` names it in errors. */
export function parseDeployImage(value: unknown, source: string): DeployImageResource[] {
  const resources = isRecord(value) ? value['resources'] : undefined;
  if (!Array.isArray(resources)) return [];
  return resources.map((entry: unknown, i) => {
    const where = `${source} resources[${i}]`;
    const options = isRecord(entry) ? entry['options'] : undefined;
    if (!isRecord(entry) || !isRecord(options)) throw new TsoperatorError(`${where} needs options`);
    return {
      group: textOf(entry['group']),
      domain: textOf(entry['domain']),
      version: textOf(entry['version']),
      kind: textOf(entry['kind']),
      options: {
        image: textOf(options['image']),
        containerPort: Number(options['containerPort']),
        ...(typeof options['containerCommand'] === 'string'
          ? { containerCommand: splitCommand(options['containerCommand']) }
          : {}),
        ...(options['runAsUser'] === undefined ? {} : { runAsUser: Number(options['runAsUser']) }),
      },
    };
  });
}

/**
 * A command as Kubebuilder's `--image-container-command` takes it and PROJECT records it: its
 * words separated by commas (`memcached,--memory-limit=64,-o,modern,-v`).
 */
export function splitCommand(text: string): string[] {
  return text.split(',').filter((word) => word !== '');
}

/** A PROJECT field that should be text: anything else reads as ''. */
function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
