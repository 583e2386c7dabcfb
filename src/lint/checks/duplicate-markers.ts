import type { ParsedMarker } from '../../markers/index.ts';
import { canonicalMarkerText } from '../../markers/index.ts';
import type { LintCheck } from '../lint-check.ts';
import { markerHolders } from '../marker-holders.ts';

/**
 * A marker written twice, the same text both times, on a declaration or on a field and the alias
 * its type is: one of them is noise, or an edit that was meant to change it. `name=value` and
 * `name:=value` are one text, as kube-api-linter reads them.
 */
export const duplicateMarkers: LintCheck = {
  name: 'duplicatemarkers',
  help: 'no marker is written twice, word for word',
  enabledByDefault: true,
  configure(settings) {
    settings.done();
    return (api, report) => {
      for (const holder of markerHolders(api)) {
        const own = new Set(holder.own.all());
        const seen = new Map<string, ParsedMarker>();
        for (const marker of holder.all.all()) {
          const key = canonicalMarkerText(marker.text).replace(/\s+/g, ' ');
          const first = seen.get(key);
          if (first === undefined) seen.set(key, marker);
          else if (own.has(marker) || own.has(first))
            report(
              own.has(marker) ? marker.location : first.location,
              `${holder.what} has duplicated markers ${marker.text}`,
              `remove the duplicated marker ${marker.text}`,
            );
        }
      }
    };
  },
};
