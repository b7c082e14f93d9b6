/**
 * The converter module the shared HTML cases expect (`../shared/cases/html/check.mjs`):
 * `convert({ body, contentType, url, maxChars })`. Raw bytes are decoded as `web_fetch` decodes them
 * (src/web/charset.ts: BOM, header charset, `<meta>`, UTF-8), then converted by `toText`.
 * The tests import it directly and also bundle it with esbuild so that `node check.mjs` can load it.
 */
import { decodeBody } from '../../src/web/charset';
import { toText } from '../../src/web/html-to-text';

export interface ConvertInput {
  body: Uint8Array;
  contentType: string;
  url?: string;
  maxChars: number;
}

export function convert({ body, contentType, url, maxChars }: ConvertInput): string {
  const { text } = decodeBody(body, contentType);
  return toText(text, contentType, url ?? 'https://example.com/', { maxChars });
}
