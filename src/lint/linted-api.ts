import type { InterfaceDeclaration, SourceFile, TypeAliasDeclaration } from 'ts-morph';
import { loadApiProject } from '../gen/crd/api-project.ts';
import { ApiTypes } from '../gen/crd/api-types.ts';
import { findKinds, isKindList } from '../gen/crd/find-kinds.ts';
import type { FieldModel, NamedTypeModel, ObjectModel, TypeModel } from '../gen/crd/type-model.ts';
import type { SourceLocation } from '../markers/index.ts';
import { DiagnosticList, MarkerSet, createMarkerRegistry, fieldMarkers } from '../markers/index.ts';

/** An object type of the API: a named interface (or type literal alias), or a type literal inside a field. */
export interface ApiObject {
  /** `WebAppSpec`, or `WebAppSpec.template` for a type literal written in a field. */
  readonly name: string;
  readonly object: ObjectModel;
  /** The markers on its declaration; none for a type literal in a field. */
  readonly markers: MarkerSet;
  readonly location: SourceLocation;
  /** A kind: the root of a CRD. */
  readonly isKind: boolean;
}

/** A field and the object it is declared in. */
export interface ApiField {
  readonly owner: ApiObject;
  readonly field: FieldModel;
  /** `WebAppSpec.replicas`, for messages. */
  readonly path: string;
}

/** The API types of a project as the checks see them, parsed by the CRD generator's type walker. */
export interface LintedApi {
  readonly named: readonly NamedTypeModel[];
  readonly objects: readonly ApiObject[];
  /**
   * The fields the field checks look at: every one but a kind's apiVersion, kind and metadata (the
   * API server owns those) and those marked +kubebuilder:validation:Schemaless (they have no schema
   * to check), as kube-api-linter's field inspector skips them.
   */
  readonly fields: readonly ApiField[];
  /** `fields` and the Schemaless ones, for conditions: kube-api-linter's walks structs itself. */
  readonly allFields: readonly ApiField[];
  readonly types: ApiTypes;
}

/** A kind's TypeMeta and ObjectMeta fields, whose schema the generator writes whatever is declared. */
const ROOT_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Loads the API types under `src/api` as `tsoperator manifests` does and walks every exported
 * interface and type alias, and each type they reference. Marker and type errors are the
 * generator's to report (`tsoperator manifests`); what cannot be parsed is left out here.
 */
export function loadLintedApi(root: string): LintedApi {
  const api = loadApiProject(root, createMarkerRegistry(), new DiagnosticList());
  const types = new ApiTypes(api.context);
  const files = [...api.folders.flatMap((folder) => folder.files), ...api.ungrouped];
  const kinds = new Set(findKinds(files, api.context).map((declaration) => types.request(declaration)));
  for (const declaration of files.flatMap(lintedDeclarations)) types.request(declaration);
  const named = types.all();
  const objects = named.flatMap((type) => namedObjects(type, kinds.has(type.id)));
  const allFields = objects.flatMap(objectFields);
  const fields = allFields.filter((field) => !field.field.markers.has(fieldMarkers.Schemaless));
  return { named, objects, fields, allFields, types };
}

/** The exported declarations the generator could map: not generic, and not a kind's list type. */
function lintedDeclarations(file: SourceFile): (InterfaceDeclaration | TypeAliasDeclaration)[] {
  const interfaces = file.getInterfaces().filter((declaration) => !isKindList(declaration));
  return [...interfaces, ...file.getTypeAliases()].filter(
    (declaration) => declaration.isExported() && declaration.getTypeParameters().length === 0,
  );
}

function namedObjects(type: NamedTypeModel, isKind: boolean): ApiObject[] {
  const { name, markers, location } = type;
  return objectsIn(type.type, name, (object) => ({ name, object, markers, location, isKind }));
}

/** The objects a type holds: itself when it is one, and type literals in its fields, depth first. */
function objectsIn(type: TypeModel, name: string, make: (object: ObjectModel) => ApiObject): ApiObject[] {
  switch (type.kind) {
    case 'object': {
      const self = make(type.object);
      const nested = type.object.fields.flatMap((field) => inlineObjects(field, `${name}.${field.name}`));
      return [self, ...nested];
    }
    case 'array':
      return objectsIn(type.items, name, make);
    case 'map':
      return objectsIn(type.values, name, make);
    case 'nullable':
      return objectsIn(type.inner, name, make);
    default:
      return [];
  }
}

function inlineObjects(field: FieldModel, name: string): ApiObject[] {
  const make = (object: ObjectModel): ApiObject => ({
    name,
    object,
    markers: new MarkerSet(),
    location: field.location,
    isKind: false,
  });
  return objectsIn(field.type, name, make);
}

function objectFields(owner: ApiObject): ApiField[] {
  return owner.object.fields
    .filter((field) => !(owner.isKind && ROOT_FIELDS.has(field.name)))
    .map((field) => ({ owner, field, path: `${owner.name}.${field.name}` }));
}
