import type { DeployImageOptions } from '../../project/deploy-image.ts';
import type { ResourceRequest } from '../../project/resolve-resource.ts';
import type { DeployImageRequest } from './deploy-image-request.ts';

/** What `tsoperator create api` takes. */
export interface CreateApiOptions extends ResourceRequest, DeployImageRequest {
  /** The project folder. */
  readonly dir: string;
}

/** The values the api templates see. */
export interface ApiTemplateData {
  readonly kind: string;
  /** `webapp`: the kind lower-cased, in file and object names. */
  readonly kindLower: string;
  /** `webApp`: the kind as a variable name. */
  readonly kindVar: string;
  /** `WEB_APP`: the kind in the name of a constant. */
  readonly kindConstant: string;
  /** `demo.example.org/finalizer`: the finalizer the kind's controller keeps on its objects. */
  readonly finalizer: string;
  /** The image the controller runs (`create api --image`), or undefined for a generic controller. */
  readonly deployImage: DeployImageOptions | undefined;
  readonly plural: string;
  /** `demo.example.org`, empty for the core group. */
  readonly qualifiedGroup: string;
  readonly version: string;
  /** `demo.example.org/v1`. */
  readonly apiVersion: string;
  readonly namespaced: boolean;
  readonly projectName: string;
  /** The license comment that opens each TypeScript file, or ''. */
  readonly licenseHeader: string;
  /** A Kubernetes kind: no types, the kind and type come from the runtime and client-node. */
  readonly external: boolean;
  /** The kind's first version: the one stored in etcd, so that later versions need no marker edits. */
  readonly storageVersion: boolean;
  /** Arguments of the types' `+kubebuilder:resource` marker (a custom plural, cluster scope), or ''. */
  readonly resourceMarker: string;
  /** The `+kubebuilder:rbac` marker's groups: the qualified group, or `""` for core. */
  readonly rbacGroup: string;
  /**
   * `,namespace=system` in a namespaced project, so that the rbac markers make a Role in the
   * operator's namespace (kustomize renames `system`); empty otherwise (a ClusterRole).
   */
  readonly rbacNamespace: string;
  /** Where the resource's files go. */
  readonly paths: ApiPaths;
  /** The import specifier of a project file (`src/runtime/index.ts`) from the file being rendered. */
  readonly imp: (projectPath: string) => string;
}

/** Where the files of one resource go, relative to the project root. */
export interface ApiPaths {
  readonly types: string;
  readonly groupVersionInfo: string;
  readonly controller: string;
  /** The Deployment and Service of a kind made with `--image`, beside its controller. */
  readonly controllerResources: string;
  readonly controllerTest: string;
  /** The end-to-end test of a kind made with `--image`: the manager, deployed, runs its sample. */
  readonly e2eTest: string;
  readonly sample: string;
  /** `config/rbac/<prefix>` + `admin_role.yaml` etc. */
  readonly rolePrefix: string;
  /** The CRD file the manifests generator writes, as listed in config/crd/kustomization.yaml. */
  readonly crdBase: string;
}
