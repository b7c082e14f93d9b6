/**
 * Long pastes in the input: a paste of more than {@link COLLAPSE_LINES} lines shows as one
 * placeholder (`[Pasted text #1 +199 lines]`, the count being the lines after the first), and the
 * message sent holds the whole text in its place. A placeholder the person edited is plain text.
 */

/** Pastes of more lines than this are shown as a placeholder. */
const COLLAPSE_LINES = 10;

/** The pastes of one input, numbered from 1 in the order pasted. */
export class PastedTexts {
  #texts = new Map<string, string>();
  #count = 0;

  /** What goes into the input for a paste of `text`: the text itself, or its placeholder. */
  add(text: string): string {
    const breaks = text.split('\n').length - 1;
    if (breaks < COLLAPSE_LINES) return text;
    const tag = `[Pasted text #${++this.#count} +${breaks} lines]`;
    this.#texts.set(tag, text);
    return tag;
  }

  /** `value` with each placeholder it still holds replaced by the text pasted. */
  expand(value: string): string {
    let out = value;
    for (const [tag, text] of this.#texts) out = out.split(tag).join(text);
    return out;
  }

  /** Forget every paste (the input was sent or cleared). */
  clear(): void {
    this.#texts.clear();
    this.#count = 0;
  }
}
