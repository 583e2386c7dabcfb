import type { BundleChannels } from './bundle-channels.ts';

/** Where operator-sdk writes a bundle, and the Dockerfile that builds its image. */
export const BUNDLE_DIR = 'bundle';
export const BUNDLE_DOCKERFILE = 'bundle.Dockerfile';
export const ANNOTATIONS_PATH = `${BUNDLE_DIR}/metadata/annotations.yaml`;

export interface BundleMetadataOptions extends BundleChannels {
  readonly packageName: string;
  /** The tool and layout that built the bundle, as operator-sdk's metrics labels name theirs. */
  readonly builder: string;
  readonly layout: string;
}

/**
 * The bundle's labels, in operator-sdk's order: the core registry+v1 ones (media type, folders,
 * package, channels) then the builder's. annotations.yaml and bundle.Dockerfile carry the same set.
 */
function bundleLabels(options: BundleMetadataOptions): {
  core: [string, string][];
  other: [string, string][];
} {
  const core: [string, string][] = [
    ['operators.operatorframework.io.bundle.mediatype.v1', 'registry+v1'],
    ['operators.operatorframework.io.bundle.manifests.v1', 'manifests/'],
    ['operators.operatorframework.io.bundle.metadata.v1', 'metadata/'],
    ['operators.operatorframework.io.bundle.package.v1', options.packageName],
    ['operators.operatorframework.io.bundle.channels.v1', options.channels.join(',')],
  ];
  if (options.defaultChannel !== undefined)
    core.push(['operators.operatorframework.io.bundle.channel.default.v1', options.defaultChannel]);
  const other: [string, string][] = [
    ['operators.operatorframework.io.metrics.builder', options.builder],
    ['operators.operatorframework.io.metrics.mediatype.v1', 'metrics+v1'],
    ['operators.operatorframework.io.metrics.project_layout', options.layout],
  ];
  return { core, other };
}

/** bundle/metadata/annotations.yaml. */
export function renderAnnotations(options: BundleMetadataOptions): string {
  const { core, other } = bundleLabels(options);
  const lines = [
    'annotations:',
    '  # Core bundle annotations.',
    ...[...core, ...other].map(([key, value]) => `  ${key}: ${value}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** bundle.Dockerfile, at the project root: `docker build -f bundle.Dockerfile .` builds the bundle image. */
export function renderBundleDockerfile(options: BundleMetadataOptions): string {
  const { core, other } = bundleLabels(options);
  const lines = [
    'FROM scratch',
    '',
    '# Core bundle labels.',
    ...[...core, ...other].map(([key, value]) => `LABEL ${key}=${value}`),
    '',
    '# Copy files to locations specified by labels.',
    `COPY ${BUNDLE_DIR}/manifests /manifests/`,
    `COPY ${BUNDLE_DIR}/metadata /metadata/`,
  ];
  return `${lines.join('\n')}\n`;
}
