/**
 * One named health or readiness check: it passes when it returns (or resolves), fails when it
 * throws (or rejects), as controller-runtime's `healthz.Checker` returns an error.
 */
export type HealthChecker = () => void | Promise<void>;

/** A check that always passes: the liveness check a process gets when it declares none. */
export const ping: HealthChecker = () => undefined;
