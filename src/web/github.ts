/** Where a page that only wraps a file can be read as the file itself. */

/** `/OWNER/REPO/blob/REF/PATH`: REF and PATH kept together, since a branch name may hold slashes. */
const BLOB = /^\/([^/]+)\/([^/]+)\/blob\/([^/]+\/.*[^/])$/;

/**
 * The raw file behind a GitHub file page: `https://github.com/OWNER/REPO/blob/REF/PATH` →
 * `https://raw.githubusercontent.com/OWNER/REPO/REF/PATH` (query and fragment dropped: the file is
 * the same whichever line the page was opened at). Undefined for any other URL. Pure: the raw URL
 * is fetched through the jail like any other.
 */
export function rawFileUrl(input: string): string | undefined {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username !== '' || url.password !== '' || url.port !== '') return undefined;
  const host = url.hostname.replace(/\.$/, '');
  if (host !== 'github.com' && host !== 'www.github.com') return undefined;
  const m = BLOB.exec(url.pathname);
  if (!m) return undefined;
  return `https://raw.githubusercontent.com/${m[1]}/${m[2]}/${m[3]}`;
}
