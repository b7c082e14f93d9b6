import { describe, expect, it } from 'vitest';
import { highlightLine } from '../../../src/tui/text/highlight';
import { parseInline, parseMarkdown } from '../../../src/tui/text/markdown';

describe('parseMarkdown', () => {
  it('draws tabs as spaces to the next 4-column stop, in prose and in code', () => {
    expect(parseMarkdown('def f():\n\treturn 1')).toEqual([
      { kind: 'paragraph', spans: [{ text: 'def f():' }] },
      { kind: 'paragraph', spans: [{ text: '    return 1' }] },
    ]);
    expect(parseMarkdown('```\nab\tc\n```')).toEqual([{ kind: 'code', lang: '', lines: ['ab  c'] }]);
  });

  it('reads headings, lists, quotes, rules, code and folds blank lines', () => {
    const blocks = parseMarkdown(
      '# Title\n\n\n- one\n  - two\n3. three\n> quoted\n---\n```ts\nconst a = 1;\n```\nplain',
    );
    expect(blocks.map((b) => b.kind)).toEqual([
      'heading',
      'blank',
      'list_item',
      'list_item',
      'list_item',
      'quote',
      'rule',
      'code',
      'paragraph',
    ]);
    expect(blocks[2]).toMatchObject({ depth: 0, marker: '•' });
    expect(blocks[3]).toMatchObject({ depth: 1, marker: '•' });
    expect(blocks[4]).toMatchObject({ marker: '3.' });
    expect(blocks[7]).toEqual({ kind: 'code', lang: 'ts', lines: ['const a = 1;'] });
  });

  it('runs an unclosed fence (still streaming) to the end', () => {
    expect(parseMarkdown('```py\nx = 1\ny = 2')).toEqual([
      { kind: 'code', lang: 'py', lines: ['x = 1', 'y = 2'] },
    ]);
  });

  it('does not read Markdown inside code', () => {
    expect(parseMarkdown('```\n# not a heading\n```')).toEqual([
      { kind: 'code', lang: '', lines: ['# not a heading'] },
    ]);
  });
});

describe('parseInline', () => {
  it('splits emphasis, code and links into styled spans', () => {
    expect(parseInline('a **b** *c* `d` [e](https://e.dev) ~~f~~')).toEqual([
      { text: 'a ' },
      { text: 'b', bold: true },
      { text: ' ' },
      { text: 'c', italic: true },
      { text: ' ' },
      { text: 'd', code: true },
      { text: ' ' },
      { text: 'e', link: 'https://e.dev' },
      { text: ' ' },
      { text: 'f', strike: true },
    ]);
  });

  it('nests emphasis', () => {
    expect(parseInline('**bold `x`**')).toEqual([
      { text: 'bold ', bold: true },
      { text: 'x', bold: true, code: true },
    ]);
  });

  it('leaves snake_case names, lone stars and unclosed code alone', () => {
    expect(parseInline('my_var_name and 2 * 3 and `open')).toEqual([
      { text: 'my_var_name and 2 * 3 and `open' },
    ]);
  });
});

describe('highlightLine', () => {
  it('colours keywords, strings, numbers and comments', () => {
    expect(highlightLine('const s = "x"; // note', 'ts')).toEqual([
      { text: 'const', kind: 'keyword' },
      { text: ' s = ', kind: 'plain' },
      { text: '"x"', kind: 'string' },
      { text: '; ', kind: 'plain' },
      { text: '// note', kind: 'comment' },
    ]);
    expect(highlightLine('x = 42  # why', 'python')).toEqual([
      { text: 'x = ', kind: 'plain' },
      { text: '42', kind: 'number' },
      { text: '  ', kind: 'plain' },
      { text: '# why', kind: 'comment' },
    ]);
  });

  it('keeps an apostrophe in a word and identifiers with digits plain', () => {
    expect(highlightLine("echo don't v2", 'sh')).toEqual([
      { text: 'echo', kind: 'keyword' },
      { text: " don't v2", kind: 'plain' },
    ]);
  });

  it('colours diff lines as added and removed', () => {
    expect(highlightLine('+new', 'diff')).toEqual([{ text: '+new', kind: 'added' }]);
    expect(highlightLine('-old', 'diff')).toEqual([{ text: '-old', kind: 'removed' }]);
  });
});
