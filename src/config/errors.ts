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
