import { TsoperatorError } from '../../errors.ts';
import { requireKnownMarker } from '../known-marker.ts';
import type { LintCheck } from '../lint-check.ts';
import { markerHolders } from '../marker-holders.ts';
import type { SettingsReader } from '../settings-reader.ts';

/** Sets of markers that exclude each other: markers of two sets on one declaration conflict. */
interface Conflict {
  readonly name: string;
  readonly sets: readonly (readonly string[])[];
  readonly description: string;
}

/** Off by default and without conflicts of its own, as in kube-api-linter: the project lists them. */
export const conflictingMarkers: LintCheck = {
  name: 'conflictingmarkers',
  help: 'markers the configuration says exclude each other do not stand together',
  enabledByDefault: false,
  configure(settings) {
    const conflicts = settings.list('conflicts').map(conflict);
    settings.done();
    if (conflicts.length === 0)
      throw new TsoperatorError(
        'conflictingmarkers is enabled but lintersConfig.conflictingmarkers.conflicts lists no conflicts',
      );
    return (api, report) => {
      for (const holder of markerHolders(api)) {
        const names = new Set(holder.all.all().map((marker) => marker.definition.name));
        for (const { name, sets, description } of conflicts) {
          const present = sets
            .map((set) => set.filter((marker) => names.has(marker)))
            .filter((set) => set.length > 0);
          if (present.length < 2) continue;
          const found = present.map((set) => set.map((m) => `+${m}`).join(', ')).join(' and ');
          report(
            holder.location,
            `${holder.what} has conflicting markers: ${name}: {${found}}. ${description}`,
            'keep the markers of one set only',
          );
        }
      }
    };
  },
};

function conflict(settings: SettingsReader): Conflict {
  const name = settings.string('name', '');
  const description = settings.string('description', '');
  const sets = settings.stringLists('sets');
  settings.done();
  if (name === '' || sets.length < 2)
    throw new TsoperatorError(
      'lintersConfig.conflictingmarkers.conflicts: each conflict has a name and at least two sets of markers',
    );
  for (const marker of sets.flat())
    requireKnownMarker(`lintersConfig.conflictingmarkers.conflicts ${name}`, marker);
  return { name, sets, description };
}
