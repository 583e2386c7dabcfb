import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// Writes the same API twice, as a Go module for controller-gen and as a tsoperator project: `kinds`
// kinds in one group, each with validated scalars, a nested struct, a keyed list, quantities,
// resources and conditions; every fourth kind embeds a pod template, as workload operators do.

const GROUP = 'bench.example.org';

interface Kind {
  readonly name: string;
  readonly withPodTemplate: boolean;
}

/** Writes `<root>/go` and `<root>/ts`, one group version with `count` kinds. */
export function writeBenchProjects(root: string, count: number, goModuleFrom: string): void {
  const kinds: Kind[] = Array.from({ length: count }, (_, i) => ({
    name: `Kind${String(i + 1).padStart(2, '0')}`,
    withPodTemplate: i % 4 === 0,
  }));
  writeGoProject(join(root, 'go'), kinds, goModuleFrom);
  writeTsProject(join(root, 'ts'), kinds);
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function writeGoProject(dir: string, kinds: readonly Kind[], goModuleFrom: string): void {
  // A fixture module with the same dependencies lends its go.mod and go.sum.
  const goMod = readFileSync(join(goModuleFrom, 'go.mod'), 'utf8').replace(
    /^module .*$/m,
    'module example.org/bench',
  );
  write(join(dir, 'go.mod'), goMod);
  copyFileSync(join(goModuleFrom, 'go.sum'), join(dir, 'go.sum'));
  write(
    join(dir, 'api', 'v1', 'groupversion_info.go'),
    `// +kubebuilder:object:generate=false\n// +groupName=${GROUP}\npackage v1\n`,
  );
  for (const kind of kinds)
    write(join(dir, 'api', 'v1', `${kind.name.toLowerCase()}_types.go`), goKind(kind));
  write(
    join(dir, 'internal', 'controller', 'rbac.go'),
    `package controller\n\n${rbacMarkers(kinds, '//')}\n\n// Reconcile stands in for the controllers.\nfunc Reconcile() {}\n`,
  );
}

function goKind({ name, withPodTemplate }: Kind): string {
  const template = withPodTemplate
    ? '\t// Template is the pod to run.\n\tTemplate corev1.PodTemplateSpec `json:"template"`\n'
    : '';
  return `package v1

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ${name}Endpoint is one address.
type ${name}Endpoint struct {
	// Name of the endpoint.
	Name string \`json:"name"\`
	// Port of the endpoint.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Port int32 \`json:"port"\`
}

// ${name}Spec is the desired state.
type ${name}Spec struct {
	// Replicas to run.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:default=1
	// +optional
	Replicas int32 \`json:"replicas,omitempty"\`
	// Image to run.
	// +kubebuilder:validation:MinLength=1
	Image string \`json:"image"\`
	// Mode of operation.
	// +kubebuilder:validation:Enum=fast;safe
	// +optional
	Mode string \`json:"mode,omitempty"\`
	// Endpoints keyed by name.
	// +listType=map
	// +listMapKey=name
	// +optional
	Endpoints []${name}Endpoint \`json:"endpoints,omitempty"\`
	// Labels to add.
	// +optional
	Labels map[string]string \`json:"labels,omitempty"\`
	// Memory to reserve.
	// +optional
	Memory *resource.Quantity \`json:"memory,omitempty"\`
	// Resources of the main container.
	// +optional
	Resources corev1.ResourceRequirements \`json:"resources,omitempty"\`
${template}}

// ${name}Status is the observed state.
type ${name}Status struct {
	// Conditions of the object.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition \`json:"conditions,omitempty"\`
	// ObservedGeneration last acted on.
	// +optional
	ObservedGeneration int64 \`json:"observedGeneration,omitempty"\`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=\`.spec.replicas\`

// ${name} is a benchmark kind.
type ${name} struct {
	metav1.TypeMeta   \`json:",inline"\`
	metav1.ObjectMeta \`json:"metadata,omitempty"\`

	Spec   ${name}Spec   \`json:"spec"\`
	Status ${name}Status \`json:"status,omitempty"\`
}
`;
}

function writeTsProject(dir: string, kinds: readonly Kind[]): void {
  write(
    join(dir, 'src', 'api', 'v1', 'groupversion-info.ts'),
    `// +groupName=${GROUP}\nexport const group = '${GROUP}';\n`,
  );
  for (const kind of kinds)
    write(join(dir, 'src', 'api', 'v1', `${kind.name.toLowerCase()}.types.ts`), tsKind(kind));
  write(
    join(dir, 'src', 'controllers', 'rbac.ts'),
    `${rbacMarkers(kinds, '//')}\nexport const controllers = [];\n`,
  );
}

function tsKind({ name, withPodTemplate }: Kind): string {
  const template = withPodTemplate
    ? '  /** Template is the pod to run. */\n  template: V1PodTemplateSpec;\n'
    : '';
  const imports = withPodTemplate ? 'V1PodTemplateSpec, V1ResourceRequirements' : 'V1ResourceRequirements';
  return `import type { ${imports} } from '@kubernetes/client-node';
import type { Condition, int32, int64, ObjectMeta, Quantity } from '../../runtime/api/types.ts';

/** ${name}Endpoint is one address. */
export interface ${name}Endpoint {
  /** Name of the endpoint. */
  name: string;
  /**
   * Port of the endpoint.
   * +kubebuilder:validation:Minimum=1
   * +kubebuilder:validation:Maximum=65535
   */
  port: int32;
}

/** ${name}Spec is the desired state. */
export interface ${name}Spec {
  /**
   * Replicas to run.
   * +kubebuilder:validation:Minimum=0
   * +kubebuilder:default=1
   */
  replicas?: int32;
  /**
   * Image to run.
   * +kubebuilder:validation:MinLength=1
   */
  image: string;
  /** Mode of operation. */
  mode?: 'fast' | 'safe';
  /**
   * Endpoints keyed by name.
   * +listType=map
   * +listMapKey=name
   */
  endpoints?: ${name}Endpoint[];
  /** Labels to add. */
  labels?: Record<string, string>;
  /** Memory to reserve. */
  memory?: Quantity;
  /** Resources of the main container. */
  resources?: V1ResourceRequirements;
${template}}

/** ${name}Status is the observed state. */
export interface ${name}Status {
  /**
   * Conditions of the object.
   * +listType=map
   * +listMapKey=type
   */
  conditions?: Condition[];
  /** ObservedGeneration last acted on. */
  observedGeneration?: int64;
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=\`.spec.replicas\`

/** ${name} is a benchmark kind. */
export interface ${name} {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: ${name}Spec;
  status?: ${name}Status;
}
`;
}

function rbacMarkers(kinds: readonly Kind[], comment: string): string {
  return kinds
    .flatMap(({ name }) => {
      const plural = `${name.toLowerCase()}s`;
      return [
        `${comment} +kubebuilder:rbac:groups=${GROUP},resources=${plural},verbs=get;list;watch;create;update;patch;delete`,
        `${comment} +kubebuilder:rbac:groups=${GROUP},resources=${plural}/status,verbs=get;update;patch`,
      ];
    })
    .join('\n');
}
