/**
 * PDF → text for `web_fetch`, on pdfjs-dist 4 (its legacy build runs on Node 20; 5.x needs Node 22).
 * pdfjs is loaded on the first PDF only: nothing at start-up imports it. Each page's text comes
 * after a `--- page N ---` line, its lines as the text layer places them (a new line where the text
 * layer ends one or the baseline moves, a space where a gap separates two runs on a line).
 */
import { WebError } from './types';

/** The text of a PDF, page by page. */
export interface PdfText {
  /** `--- page 1 ---`, that page's lines, a blank line, `--- page 2 ---`, ...; empty pages say so. */
  text: string;
  pages: number;
  /** Pages whose text layer holds no text (a scanned page is an image). */
  emptyPages: number;
}

/** The parts of pdfjs's text items read here. */
interface TextItem {
  str: string;
  hasEOL: boolean;
  transform: number[];
  width: number;
  height: number;
}

/** Said in place of a page's text when it has none. */
const NO_TEXT_ON_PAGE = '(no text on this page: it may be a scanned image)';

/** One page's text items as lines. */
function linesOf(items: readonly TextItem[]): string {
  let out = '';
  let lastY: number | undefined;
  let lastEnd = 0;
  for (const item of items) {
    const x = item.transform[4] ?? 0;
    const y = item.transform[5] ?? 0;
    const size = Math.abs(item.height) || Math.abs(item.transform[3] ?? 0) || 10;
    if (lastY !== undefined && out !== '' && !out.endsWith('\n')) {
      if (Math.abs(y - lastY) > size * 0.5) out += '\n';
      else if (x - lastEnd > size * 0.2 && !/\s$/.test(out) && !/^\s/.test(item.str)) out += ' ';
    }
    out += item.str;
    if (item.hasEOL) out += '\n';
    lastY = y;
    lastEnd = x + item.width;
  }
  return out
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** pdfjs's exceptions in words the model can act on. */
function readError(err: unknown): WebError {
  const name = err instanceof Error ? err.name : '';
  if (name === 'PasswordException') {
    return new WebError(
      'the PDF is protected by a password; web_fetch cannot open it. Look for another copy of the document.',
      'content_type',
    );
  }
  const msg = err instanceof Error ? err.message : String(err);
  return new WebError(
    `the PDF could not be read (${msg.split('\n')[0]}); it may be damaged or not a PDF. Look for an HTML or text version.`,
    'content_type',
  );
}

/**
 * The text of a PDF with page markers.
 * @param data the whole file (a copy is handed to pdfjs).
 * @throws {@link WebError} kind `content_type` for a damaged or password-protected file; `aborted`
 *   when `signal` aborts between pages.
 */
export async function pdfToText(data: Uint8Array, signal?: AbortSignal): Promise<PdfText> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = pdfjs.getDocument({
    data: new Uint8Array(data),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  const onAbort = () => void task.destroy();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    let doc;
    try {
      doc = await task.promise;
    } catch (err) {
      throw signal?.aborted ? aborted() : readError(err);
    }
    const parts: string[] = [];
    let emptyPages = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      if (signal?.aborted) throw aborted();
      let text: string;
      try {
        const page = await doc.getPage(n);
        const content = await page.getTextContent();
        text = linesOf(content.items.flatMap((i) => ('str' in i ? [i as TextItem] : [])));
        page.cleanup();
      } catch (err) {
        throw signal?.aborted ? aborted() : readError(err);
      }
      if (text === '') emptyPages++;
      parts.push(`--- page ${n} ---\n${text === '' ? NO_TEXT_ON_PAGE : text}`);
    }
    return { text: parts.join('\n\n'), pages: doc.numPages, emptyPages };
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await task.destroy().catch(() => {});
  }
}

function aborted(): WebError {
  return new WebError('aborted: reading the PDF was cancelled.', 'aborted');
}
