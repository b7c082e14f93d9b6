/**
 * A writer's first failure, told once: `fail` keeps the first message and tells every listener;
 * `onFailure` tells a listener at once if the failure already happened. Used by the session log and
 * the session store, which stop writing (and the session goes on) after a failed write.
 */
export class WriteFailure {
  #message: string | undefined;
  readonly #listeners = new Set<(message: string) => void>();

  /** The first failure's message for the person; undefined while writes succeed. */
  get message(): string | undefined {
    return this.#message;
  }

  /** Records the failure (only the first counts) and tells the listeners. */
  fail(message: string): void {
    if (this.#message !== undefined) return;
    this.#message = message;
    for (const listener of this.#listeners) listener(message);
    this.#listeners.clear();
  }

  /** Calls `listener` once with the failure's message. Returns the function that removes it. */
  onFailure(listener: (message: string) => void): () => void {
    if (this.#message !== undefined) {
      listener(this.#message);
      return () => {};
    }
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
