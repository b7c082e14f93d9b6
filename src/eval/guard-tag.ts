/** The start of the line the network guard (net-guard.ts) writes on stderr; the runner looks for it. */
export const GUARD_TAG = 'codey eval: network guard:';
