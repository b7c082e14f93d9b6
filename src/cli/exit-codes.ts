/** Exit codes (README "Exit codes"). */
export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

/** Start-up stops with this error's one line (no stack, exit 1): something the person must fix first. */
export class StartRefused extends Error {}
