export type { CrdGeneratorOptions } from './generate-crds.ts';
export { generateCrds } from './generate-crds.ts';
export { CRD_BASES_DIR, crdFile } from './crd-files.ts';
export { GENERATOR_ANNOTATION } from './build-crd.ts';
export type { CustomResourceDefinition, CrdVersion, PrinterColumn } from './custom-resource-definition.ts';
export type { JSONSchemaProps, ValidationRule } from './json-schema-props.ts';
export { crdManifestGenerator } from './crd-manifest-generator.ts';
