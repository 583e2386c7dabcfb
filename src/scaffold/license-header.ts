import type { TsoperatorSettings } from '../project/project-config.ts';

/**
 * The comment that opens every TypeScript file a scaffold writes for the user, as Kubebuilder's
 * boilerplate does for Go files: the Apache 2.0 notice with `--owner`, or nothing with
 * `--license none`. No year, so that regenerating next year changes nothing.
 */
export function licenseHeader(settings: Pick<TsoperatorSettings, 'license' | 'owner'>): string {
  if (settings.license === 'none') return '';
  const lines = [
    '/*',
    ...(settings.owner === undefined ? [] : [` * Copyright ${settings.owner}.`, ' *']),
    ' * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in',
    ' * compliance with the License. You may obtain a copy of the License at',
    ' * http://www.apache.org/licenses/LICENSE-2.0',
    ' */',
  ];
  return `${lines.join('\n')}\n\n`;
}
