import type { ManifestGenerator } from '../manifest-generator.ts';
import { crdFile } from './crd-files.ts';
import { generateCrds } from './generate-crds.ts';

/** CRDs from the types under `src/api`, to `config/crd/bases/<group>_<plural>.yaml`. */
export const crdManifestGenerator: ManifestGenerator = {
  name: 'crd',
  generate: (context) => generateCrds(context).map(crdFile),
};
