/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

/**
 * Whether E2E_USE_CURRENT_CLUSTER asks for the current kubeconfig's cluster: `true` or `1` does; unset,
 * empty, `false` or `0` asks for a control plane of the suite's own. Any other value is refused rather
 * than read as "no": a typo must not quietly test somewhere else than asked.
 */
export function useCurrentCluster(value: string | undefined): boolean {
  const setting = (value ?? '').trim().toLowerCase();
  if (setting === 'true' || setting === '1') return true;
  if (setting === '' || setting === 'false' || setting === '0') return false;
  throw new Error(
    `E2E_USE_CURRENT_CLUSTER=${value ?? ''} is not understood: set it to true (or 1) to test in the ` +
      "current kubeconfig's cluster, or unset it (or false, 0) to test on a control plane of the suite's own",
  );
}
