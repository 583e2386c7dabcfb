import { TsoperatorError } from '../errors.ts';
import { createMarkerRegistry } from '../markers/index.ts';

/**
 * Throws unless tsoperator parses the marker `identifier` names: the marker parser keeps only the
 * markers it knows, so a setting naming another (or a typo) would never match and say nothing.
 */
export function requireKnownMarker(setting: string, identifier: string): void {
  const known = createMarkerRegistry()
    .all()
    .some((definition) => definition.name === identifier);
  if (!known)
    throw new TsoperatorError(
      `${setting}: tsoperator does not know the marker ${JSON.stringify(identifier)}; only markers it parses can be matched`,
    );
}
