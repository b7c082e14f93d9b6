/** The states of `Layout` (`layout.ts`) that the reducer saves and goes back to. */

/** A place in the output to cut back to (a long link-only list), with the owed layout there. */
export interface Mark {
  at: number;
  epoch: number;
  nl: number;
  sp: boolean;
  lastSp: boolean;
  atLineStart: boolean;
  marker: string | null;
  head: string;
  open: string;
}

/** The owed-layout state, saved when a dropped region starts so its output can be cut afterwards. */
export interface Snapshot {
  buf: string;
  nl: number;
  sp: boolean;
  lastSp: boolean;
  atLineStart: boolean;
  marker: string | null;
  head: string;
  open: string;
  link: number;
  code: number;
}
