/**
 * Math for the HTML reducer: MathML's `alttext`, else its TeX `annotation`, else its text, written
 * as `$…$`; Wikipedia's formula pictures give their alt text (the TeX) the same way.
 */
import { cleanChars, WHITESPACE_RUN } from './text';

/** `{\displaystyle e^{i\pi }+1=0}` → `e^{i\pi }+1=0`: the style wrapper MediaWiki puts around TeX. */
export function texOf(source: string): string {
  const t = cleanChars(source).replace(WHITESPACE_RUN, ' ').trim();
  const m = /^\{\\(?:displaystyle|textstyle|scriptstyle)\s*([\s\S]*)\}$/.exec(t);
  return (m ? m[1] : t).trim();
}

/** Whether an image is a formula drawn as a picture, its TeX in `alt` (MediaWiki's fallback image). */
export function isMathImage(cls: string | undefined): boolean {
  return cls !== undefined && cls.includes('mwe-math-fallback-image');
}

/** The text of one math element, read instead of written. */
export class MathText {
  private text = '';
  private tex = '';
  /** Depth inside a TeX annotation (0: outside). */
  private inTex = 0;

  /** An `annotation` opens; `encoding` says whether it holds TeX. */
  annotation(encoding: string | undefined): boolean {
    if (this.inTex > 0) {
      this.inTex++;
      return true;
    }
    if (!encoding || !/tex/i.test(encoding)) return false;
    this.inTex = 1;
    return true;
  }

  endAnnotation(): void {
    if (this.inTex > 0) this.inTex--;
  }

  add(data: string): void {
    if (this.inTex > 0) this.tex += data;
    else if (this.text.length < 10_000) this.text += data;
  }

  /** `$TeX$` when there was a TeX annotation, else the text (whitespace collapsed). */
  result(): string {
    const tex = texOf(this.tex);
    if (tex) return `$${tex}$`;
    return cleanChars(this.text).replace(WHITESPACE_RUN, '').trim();
  }
}
