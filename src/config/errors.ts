/** A config file that cannot be read or parsed. The CLI prints it and exits 2. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(
    message: string,
    /** The file at fault (its path). */
    readonly file: string,
  ) {
    super(message);
  }
}

/** Command-line flags with invalid values: a usage error (exit 2), since a flag has no fallback. */
export class FlagError extends Error {
  override name = 'FlagError';
  constructor(
    /** One line per bad flag: the flag, its value and why it is invalid. */
    readonly problems: readonly string[],
  ) {
    super(problems.join('; '));
  }
}
