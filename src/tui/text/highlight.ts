/**
 * Keyword-level syntax colour for fenced code: comments, strings, numbers and keywords of the common
 * languages. One line at a time, no state across lines (a block comment colours its marker lines only).
 */

export type TokenKind = 'plain' | 'keyword' | 'string' | 'comment' | 'number' | 'added' | 'removed';

export interface Token {
  text: string;
  kind: TokenKind;
}

const KEYWORDS = new Set(
  (
    'abstract as async await break case catch class const continue def default defer del delete do elif ' +
    'else enum export extends false final finally fn for from func function go if impl implements import ' +
    'in instanceof interface is lambda let loop match mod module mut new nil None null of package pass ' +
    'private protected pub public raise readonly return self static struct super switch this throw throws ' +
    'trait true True False try type typeof undefined unsafe use var void where while with yield ' +
    'then fi done esac local echo export'
  ).split(' '),
);

const HASH_COMMENT = new Set([
  'py',
  'python',
  'sh',
  'bash',
  'shell',
  'zsh',
  'fish',
  'console',
  'rb',
  'ruby',
  'yaml',
  'yml',
  'toml',
  'r',
  'perl',
  'pl',
  'make',
  'makefile',
  'dockerfile',
  'ini',
  'conf',
  'nix',
  'elixir',
  'ex',
]);
const DASH_COMMENT = new Set(['sql', 'lua', 'haskell', 'hs']);

function commentMarker(lang: string): string {
  if (HASH_COMMENT.has(lang)) return '#';
  if (DASH_COMMENT.has(lang)) return '--';
  return '//';
}

const STRING = /^(?:"(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|`(?:[^`\\]|\\.)*`?)/;
const NUMBER = /^(?:0x[0-9a-fA-F_]+|\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?)\b/;
const WORD = /^[A-Za-z_$][\w$]*/;

/** Splits one line of code in `lang` (the fence's info string, lower case) into coloured tokens. */
export function highlightLine(line: string, lang: string): Token[] {
  if (lang === 'diff' || lang === 'patch') {
    if (line.startsWith('+') && !line.startsWith('+++')) return [{ text: line, kind: 'added' }];
    if (line.startsWith('-') && !line.startsWith('---')) return [{ text: line, kind: 'removed' }];
    return [{ text: line, kind: 'plain' }];
  }
  const comment = commentMarker(lang);
  const tokens: Token[] = [];
  let plain = '';
  const add = (text: string, kind: TokenKind) => {
    if (plain) tokens.push({ text: plain, kind: 'plain' });
    plain = '';
    tokens.push({ text, kind });
  };
  let i = 0;
  while (i < line.length) {
    const rest = line.slice(i);
    const prev = line[i - 1];
    if (
      rest.startsWith(comment) &&
      (comment !== '#' || prev === undefined || prev === ' ' || prev === '\t')
    ) {
      add(rest, 'comment');
      break;
    }
    if (rest.startsWith('/*')) {
      const end = rest.indexOf('*/', 2);
      const text = end === -1 ? rest : rest.slice(0, end + 2);
      add(text, 'comment');
      i += text.length;
      continue;
    }
    const c = line[i];
    if (c === '"' || c === "'" || c === '`') {
      // An apostrophe inside a word (don't) is not a string.
      if (!(c === "'" && prev !== undefined && /\w/.test(prev))) {
        const m = STRING.exec(rest)!;
        add(m[0], 'string');
        i += m[0].length;
        continue;
      }
    }
    if (/\d/.test(c) && (prev === undefined || !/[\w$]/.test(prev))) {
      const m = NUMBER.exec(rest);
      if (m) {
        add(m[0], 'number');
        i += m[0].length;
        continue;
      }
    }
    if (/[A-Za-z_$]/.test(c) && (prev === undefined || !/[\w$]/.test(prev))) {
      const word = WORD.exec(rest)![0];
      if (KEYWORDS.has(word)) add(word, 'keyword');
      else plain += word;
      i += word.length;
      continue;
    }
    plain += c;
    i++;
  }
  if (plain) tokens.push({ text: plain, kind: 'plain' });
  return tokens;
}
