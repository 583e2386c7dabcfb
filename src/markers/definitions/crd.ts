import { fieldsMarker, flagMarker, valueMarker } from '../definition.ts';

const category = 'CRD';
const onType = ['type'] as const;

/** Markers on a kind that shape its CustomResourceDefinition rather than its schema. */
export const crdMarkers = {
  objectRoot: valueMarker(
    {
      name: 'kubebuilder:object:root',
      targets: onType,
      category: 'object',
      help: 'the type is a kind (or a list of one)',
    },
    { type: 'bool', default: true },
  ),
  objectGenerate: valueMarker(
    {
      name: 'kubebuilder:object:generate',
      targets: ['package', 'type'],
      category: 'object',
      help: 'accepted for Kubebuilder compatibility',
    },
    { type: 'bool', default: true },
  ),
  statusSubresource: flagMarker({
    name: 'kubebuilder:subresource:status',
    targets: onType,
    category,
    help: 'enables the status subresource',
  }),
  scaleSubresource: fieldsMarker(
    {
      name: 'kubebuilder:subresource:scale',
      targets: onType,
      category,
      help: 'enables the scale subresource',
    },
    {
      specpath: { type: 'string' },
      statuspath: { type: 'string' },
      selectorpath: { type: 'string', optional: true },
    },
  ),
  printColumn: fieldsMarker(
    { name: 'kubebuilder:printcolumn', targets: onType, category, help: 'a column for kubectl get' },
    {
      name: { type: 'string' },
      type: { type: 'string' },
      JSONPath: { type: 'string' },
      description: { type: 'string', optional: true },
      format: { type: 'string', optional: true },
      priority: { type: 'int', optional: true },
    },
  ),
  resource: fieldsMarker(
    { name: 'kubebuilder:resource', targets: onType, category, help: 'resource names and scope' },
    {
      path: { type: 'string', optional: true },
      shortName: { type: { list: 'string' }, optional: true },
      categories: { type: { list: 'string' }, optional: true },
      singular: { type: 'string', optional: true },
      scope: { type: 'string', optional: true },
    },
  ),
  storageVersion: flagMarker({
    name: 'kubebuilder:storageversion',
    targets: onType,
    category,
    help: 'this version is the one stored in etcd',
  }),
  skipVersion: flagMarker({
    name: 'kubebuilder:skipversion',
    targets: onType,
    category,
    help: 'leave this version out of the CRD',
  }),
  unservedVersion: flagMarker({
    name: 'kubebuilder:unservedversion',
    targets: onType,
    category,
    help: 'the version is in the CRD but not served',
  }),
  deprecatedVersion: fieldsMarker(
    { name: 'kubebuilder:deprecatedversion', targets: onType, category, help: 'the version is deprecated' },
    { warning: { type: 'string', optional: true } },
  ),
  metadata: fieldsMarker(
    {
      name: 'kubebuilder:metadata',
      targets: onType,
      category,
      help: 'annotations and labels of the CRD (key=value)',
    },
    {
      annotations: { type: { list: 'string' }, optional: true },
      labels: { type: { list: 'string' }, optional: true },
    },
  ),
  selectableField: fieldsMarker(
    {
      name: 'kubebuilder:selectablefield',
      targets: onType,
      category,
      help: 'a field usable in field selectors',
    },
    { JSONPath: { type: 'string' } },
  ),
} as const;

/** Markers in a version folder's group-version file. */
export const packageMarkers = {
  groupName: valueMarker(
    { name: 'groupName', targets: ['package'], category, help: 'the API group of this version folder' },
    { type: 'string', optional: true },
  ),
  versionName: valueMarker(
    {
      name: 'versionName',
      targets: ['package'],
      category,
      help: 'the version name (default: the folder name)',
    },
    { type: 'string' },
  ),
  optionalByDefault: flagMarker({
    name: 'kubebuilder:validation:Optional',
    targets: ['package'],
    category: 'CRD validation',
    help: 'fields are optional unless marked required',
  }),
  requiredByDefault: flagMarker({
    name: 'kubebuilder:validation:Required',
    targets: ['package'],
    category: 'CRD validation',
    help: 'fields are required unless marked optional (the default)',
  }),
  skip: flagMarker({
    name: 'kubebuilder:skip',
    targets: ['package'],
    category,
    help: 'this folder is not an API version',
  }),
} as const;
