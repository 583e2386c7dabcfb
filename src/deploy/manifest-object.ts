/** A Kubernetes object as kustomize printed it. */
export type ManifestObject = Record<string, unknown> & {
  readonly kind: string;
  readonly metadata: Record<string, unknown> & { readonly name: string; readonly namespace?: string };
};

/** The parts of a container the chart reads and edits. */
export interface ManagerContainer {
  name: string;
  args?: unknown[];
  ports?: { name?: string }[];
  volumeMounts?: { name?: string }[];
  resources?: Record<string, unknown>;
}

/** The manager's Deployment: the one whose Pod runs a container named `manager`. */
export function managerDeployment(objects: readonly ManifestObject[]): ManifestObject | undefined {
  return objects.find((object) => object.kind === 'Deployment' && managerContainer(object) !== undefined);
}

/** The `manager` container of a Deployment. */
export function managerContainer(deployment: ManifestObject): ManagerContainer | undefined {
  return podSpec(deployment)?.containers?.find((container) => container.name === 'manager');
}

/** The Pod spec of a Deployment. */
export function podSpec(
  deployment: ManifestObject,
): { containers?: ManagerContainer[]; volumes?: { name?: string }[] } | undefined {
  const spec = deployment['spec'] as
    { template?: { spec?: { containers?: ManagerContainer[]; volumes?: { name?: string }[] } } } | undefined;
  return spec?.template?.spec;
}

/** True when the value is an object kustomize printed. */
export function isManifestObject(value: unknown): value is ManifestObject {
  if (value === null || typeof value !== 'object') return false;
  const object = value as { kind?: unknown; metadata?: { name?: unknown } };
  return typeof object.kind === 'string' && typeof object.metadata?.name === 'string';
}
