import type { HeldSettings, Settings } from '../config/resolve';

/** Options as commander parses them. */
export interface CliOptions {
  print?: string | boolean;
  model?: string;
  baseUrl?: string;
  maxTurns?: number;
  outputFormat: 'text' | 'json' | 'stream-json';
  /** `--image FILE` (repeatable, with -p): images attached to the prompt. */
  image?: string[];
  allow: string[];
  deny?: string[];
  /** `--add-dir`: more folders for the file tools. */
  addDir?: string[];
  web: boolean;
  skills: boolean;
  agents: boolean;
  verbose: boolean;
  /** `-c`: go on with the newest session of this workspace. */
  continue?: boolean;
  /** `-r [ID]`: go on with session ID, or (no ID, interactive) pick one. */
  resume?: string | boolean;
}

/** Settings as resolved, and what the project file holds back until the person trusts it. */
export interface Resolved {
  settings: Settings;
  /** Not yet trusted: its notices are not printed yet (the caller asks, or prints them). */
  held?: HeldSettings;
  /**
   * The person trusts this project's widening settings (answered yes now, or before for the files
   * as they are): a repository's command `allowed-tools` hold only then.
   */
  projectTrusted: boolean;
}
