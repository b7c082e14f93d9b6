/**
 * The converter module the shared HTML cases expect (`../shared/cases/html/check.mjs`):
 * `convert({ body, contentType, url, maxChars })`. Raw bytes are decoded as `web_fetch` decodes them
 * (src/web/charset.ts: BOM, header charset, `<meta>`, UTF-8); an HTML or XHTML body is converted by
 * `htmlToText`, as web_fetch does, and any other body passes through as it is.
 * The tests import it directly and also bundle it with esbuild so that `node check.mjs` can load it.
 */
import { decodeBody } from '../../src/web/charset';
import { htmlToText } from '../../src/web/html-to-text';

export interface ConvertInput {
  body: Uint8Array;
  contentType: string;
  url?: string;
  maxChars: number;
}

export function convert({ body, contentType, url, maxChars }: ConvertInput): string {
  const { text } = decodeBody(body, contentType);
  const mime = contentType.split(';', 1)[0].trim().toLowerCase();
  if (mime !== 'text/html' && mime !== 'application/xhtml+xml') return text;
  return htmlToText(text, url ?? 'https://example.com/', { maxChars });
}
