/**
 * htmlToText behaviour the shared cases do not pin down: the cap at every length, very deep
 * nesting of every container kind, hostile input, link resolution, unclosed page chrome, and the
 * markdown shapes (fences, tables, lists, title line).
 */
import { describe, expect, it } from 'vitest';
import { htmlToText } from '../../src/web/html-to-text';

const BASE = 'https://docs.example.com/guide/intro.html';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const text = (html: string, baseUrl = BASE) => htmlToText(html, baseUrl);

describe('cap (maxChars)', () => {
  const emoji = '😀'.repeat(3000); // 6,000 code units, a surrogate pair every two
  const html = `<p>HEAD ${emoji}</p><p>${emoji} TAIL</p>`;

  it('keeps head and tail with a note, within the cap, at every length and parity', () => {
    for (let max = 100; max <= 400; max++) {
      const out = htmlToText(html, BASE, { maxChars: max });
      expect(out.length, `maxChars=${max}`).toBeLessThanOrEqual(max);
      expect(LONE_SURROGATE.test(out), `lone surrogate at maxChars=${max}`).toBe(false);
      expect(out.startsWith('HEAD 😀')).toBe(true);
      expect(out.endsWith('😀 TAIL')).toBe(true);
      expect(out).toMatch(/\[… [\d,]+ characters cut from the middle of the page …\]/);
    }
  });

  it('says how many characters it cut', () => {
    const full = htmlToText(html, BASE);
    const out = htmlToText(html, BASE, { maxChars: 1000 });
    const cut = Number(/\[… ([\d,]+) characters cut/.exec(out)?.[1].replace(/,/g, ''));
    const note = /\n\n\[…[^\]]*\]\n\n/.exec(out)?.[0] ?? '';
    expect(cut).toBe(full.length - (out.length - note.length));
  });

  it('keeps only a well-formed head when the cap is too small for the note', () => {
    for (let max = 0; max <= 12; max++) {
      const out = htmlToText(`<p>${emoji}</p>`, BASE, { maxChars: max });
      expect(out.length).toBeLessThanOrEqual(max);
      expect(LONE_SURROGATE.test(out)).toBe(false);
    }
    expect(htmlToText(`<p>${emoji}</p>`, BASE, { maxChars: 5 })).toBe('😀😀');
  });

  it('returns text within the cap unchanged', () => {
    expect(htmlToText('<p>short</p>', BASE, { maxChars: 5 })).toBe('short');
  });
});

describe('deep nesting', () => {
  const DEPTH = 20_000;

  it.each([
    ['div', '<div>', '</div>'],
    ['list', '<ul><li>', '</li></ul>'],
    ['blockquote', '<blockquote>', '</blockquote>'],
    ['table', '<table><tr><td>', '</td></tr></table>'],
    ['link and code', '<a href="/x"><code><span>', '</span></code></a>'],
    ['mixed, never closed', '<section><ol><li><blockquote><b>', ''],
  ])('%s, 20,000 levels: no stack overflow, text kept, small output', (_name, open, close) => {
    const html = `<p>BEFORE</p>${open.repeat(DEPTH)}DEEP${close.repeat(DEPTH)}<p>AFTER</p>`;
    const out = text(html);
    expect(out).toContain('BEFORE');
    expect(out).toContain('DEEP');
    expect(out).toContain('AFTER');
    expect(out.length).toBeLessThan(2_000);
  });

  it('indents nested lists, up to a limit', () => {
    const out = text('<ul><li>a<ul><li>b<ol><li>c</li></ol></li></ul></li></ul>');
    expect(out).toBe('- a\n  - b\n    1. c');
    const deep = text(`${'<ul><li>x'.repeat(50)}`);
    expect(Math.max(...deep.split('\n').map((l) => l.length))).toBeLessThanOrEqual(40);
  });
});

describe('hostile and broken input', () => {
  it.each([
    ['empty', ''],
    ['only a <', '<'],
    ['unclosed comment', 'before<!-- never closed'],
    ['unclosed script', '<p>ok</p><script>var x = "<p>"'],
    ['unclosed attribute', '<p>ok</p><a href="https://exa'],
    ['NUL and controls', 'a\u0000b\u0001c\u001b[31m'],
    ['lone surrogates', 'x\uD800y\uDC00z'],
    ['stray end tags', '</p></div></table></li></ul></html>'.repeat(1000)],
    ['binary-looking', String.fromCharCode(...Array.from({ length: 4096 }, (_, i) => (i * 7919) % 65536))],
  ])('%s: no throw, well-formed, no NUL', (_name, html) => {
    const out = text(html);
    expect(typeof out).toBe('string');
    expect(LONE_SURROGATE.test(out)).toBe(false);
    expect(out).not.toContain('\u0000');
  });

  it('replaces lone surrogates with U+FFFD', () => {
    expect(text('<p>x\uD800y</p>')).toBe('x\uFFFDy');
  });

  it('keeps text before an unterminated tag and nothing of the tag', () => {
    expect(text('<p>ok</p><a href="https://exa')).toBe('ok');
    expect(text('<p>ok</p><script>var x = "<p>"')).toBe('ok');
  });

  it('does not slow to a crawl on stray end tags under a deep stack', () => {
    // Quadratic end-tag search would take minutes here; bounded, it finishes in the suite timeout.
    const html = '<span>'.repeat(50_000) + 'IN' + '</nope>'.repeat(100_000);
    expect(text(html)).toBe('IN');
  });
});

describe('links', () => {
  it('resolves relative targets against the page URL', () => {
    expect(text('<a href="../ref/a.html">A</a> <a href="/b">B</a> <a href="//cdn.example.net/c">C</a>')).toBe(
      '[A](https://docs.example.com/ref/a.html) [B](https://docs.example.com/b) [C](https://cdn.example.net/c)',
    );
  });

  it('resolves against <base href> when the page has one', () => {
    expect(text('<head><base href="https://other.example/root/"></head><a href="x">X</a>')).toBe(
      '[X](https://other.example/root/x)',
    );
  });

  it('keeps only the text of non-http(s) and fragment-only targets', () => {
    const html =
      '<a href="javascript:alert(1)">J</a> <a href="data:text/html,hi">D</a> ' +
      '<a href="mailto:a@b.c">M</a> <a href="#top">F</a> <a href="ftp://x/y">P</a> <a>N</a>';
    expect(text(html)).toBe('J D M F P N');
  });

  it('keeps absolute links when the page URL is unusable, and drops relative ones', () => {
    expect(text('<a href="https://x.example/a">A</a> <a href="/b">B</a>', 'not a url')).toBe(
      '[A](https://x.example/a) B',
    );
  });

  it('resolves path-absolute targets as URL parsing does: dot segments, escapes, credentials, base', () => {
    const html =
      '<a href="/a/./b/../c?x=1#f">A</a> <a href="/d e">B</a> <a href="/%2e%2e/f">C</a> ' +
      '<a href="/g\\h">D</a> <a href="/a/./b/../c?x=1#f">E</a>';
    expect(text(html, 'https://u:p@h.example:8080/x/y')).toBe(
      '[A](https://u:p@h.example:8080/a/c?x=1#f) [B](https://u:p@h.example:8080/d%20e) ' +
        '[C](https://u:p@h.example:8080/f) [D](https://u:p@h.example:8080/g/h) ' +
        '[E](https://u:p@h.example:8080/a/c?x=1#f)',
    );
    // Links before <base> resolve against the page URL, later ones against the base.
    expect(text('<a href="/p">P</a><base href="https://other.example/r/"><a href="/p">Q</a>')).toBe(
      '[P](https://docs.example.com/p)[Q](https://other.example/p)',
    );
  });

  it('drops an empty link and ends link text at a block boundary', () => {
    expect(text('<p>a <a href="/x"></a>b</p>')).toBe('a b');
    expect(text('<a href="/card"><h3>Title</h3><p>Summary</p></a>')).toBe(
      '### [Title](https://docs.example.com/card)\n\nSummary',
    );
  });

  it('gives images their alt text only', () => {
    expect(text('<p>See <img src="data:image/png;base64,AAAA" alt="the chart"> below</p>')).toBe(
      'See the chart below',
    );
  });
});

describe('page chrome', () => {
  it('ends an unclosed nav where main starts', () => {
    const out = text('<body><nav><ul><li><a href="/a">HOME-LINK</a></ul><main><p>CONTENT</p></main></body>');
    expect(out).toBe('CONTENT');
  });

  it('ends an unclosed nav at an h1', () => {
    expect(text('<body><nav><a href="/">MENU</a><div><h1>TITLE</h1><p>BODY</p></div></body>')).toBe(
      '# TITLE\n\nBODY',
    );
  });

  it('keeps an unclosed nav that swallowed paragraphs rather than lose the page', () => {
    const out = text('<body><nav><a href="/">MENU</a></ul><p>PARA-ONE</p><p>PARA-TWO</p></body>');
    expect(out).toContain('PARA-ONE');
    expect(out).toContain('PARA-TWO');
  });

  it('drops a closed nav even when it holds paragraphs, and every nav inside main', () => {
    expect(text('<nav><p>NAV-PARA</p></nav><main><nav>TOC</nav><p>BODY</p></main>')).toBe('BODY');
  });

  it('keeps header, footer and aside inside article or main', () => {
    const html =
      '<header>SITE</header><article><header><h1>POST</h1></header><p>TEXT</p><aside>NOTE</aside>' +
      '<footer>BY-LINE</footer></article><aside>ADS</aside><footer>COPYRIGHT</footer>';
    expect(text(html)).toBe('# POST\n\nTEXT\n\nNOTE\nBY-LINE');
  });

  it('treats ARIA landmark roles like the elements', () => {
    expect(
      text(
        '<div role="navigation">MENU</div><div role="main"><p>BODY</p></div><div role="contentinfo">C</div>',
      ),
    ).toBe('BODY');
  });
});

describe('hidden content', () => {
  it.each([
    ['aria-hidden', '<span aria-hidden="true">ICON</span>'],
    ['visibility:hidden', '<div style="visibility: hidden">GONE</div>'],
    ['closed dialog', '<dialog><p>MODAL</p></dialog>'],
    ['later title', '<title>T</title><svg><title>SVG</title></svg><title>SECOND</title>'],
    ['object-free media', '<video><p>FALLBACK</p></video><audio>FALLBACK</audio>'],
  ])('drops %s', (_name, html) => {
    expect(text(`<p>A</p>${html}<p>B</p>`).replace(/^# T\n\n/, '')).toBe('A\n\nB');
  });

  it('keeps an open dialog and aria-hidden on main', () => {
    expect(text('<dialog open>SHOWN</dialog><main aria-hidden="true">MAIN</main>')).toBe('SHOWN\nMAIN');
  });
});

describe('markdown shapes', () => {
  it('fences pre with the language and a longer fence when the code holds ```', () => {
    expect(text('<pre class="language-py">x = 1\n</pre>')).toBe('```py\nx = 1\n```');
    expect(text('<pre><code class="lang-md">```\ncode\n```</code></pre>')).toBe(
      '````md\n```\ncode\n```\n````',
    );
  });

  it('writes inline code in backticks and drops empty ones', () => {
    expect(text('<p>Set <code>a.b</code> and <code></code>go</p>')).toBe('Set `a.b` and go');
  });

  it('writes tables as pipe rows with a header separator', () => {
    expect(text('<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td></td></tr></table>')).toBe(
      '| A | B |\n| --- | --- |\n| 1 |  |',
    );
  });

  it('numbers ordered lists from start and value', () => {
    expect(text('<ol start="3"><li>c<li value="7">g<li>h</ol>')).toBe('3. c\n7. g\n8. h');
  });

  it('prefixes blockquote lines, blank lines included', () => {
    expect(text('<p>before</p><blockquote><p>one</p><p>two</p></blockquote><p>after</p>')).toBe(
      'before\n\n> one\n>\n> two\n\nafter',
    );
  });

  it('puts the title first unless the first h1 says the same', () => {
    expect(text('<title>Guide | Site</title><h1>Guide</h1>')).toBe('# Guide | Site\n\n# Guide');
    expect(text('<title> Guide </title><h1>Guide</h1><p>x</p>')).toBe('# Guide\n\nx');
    expect(text('<title>Guide</title><p>intro</p><h1>Guide</h1>')).toBe('intro\n\n# Guide');
  });

  it('decodes entities exactly once', () => {
    expect(text('<p>&amp;lt; &lt;b&gt; &#38;amp;</p>')).toBe('&lt; <b> &amp;');
  });
});

describe('element names and attributes', () => {
  it('matches tag names in any ASCII case, and as toLowerCase does beyond ASCII', () => {
    expect(text('<UL><Li>a</LI><li>b</Li></uL><P>after</p>')).toBe('- a\n- b\n\nafter');
    // U+212A KELVIN SIGN lowercases to "k": toLowerCase makes these blockquote tags.
    expect(text('<p>x<bloc\u212Aquote>quoted</blockquote>after</p>')).toBe('x\n\n> quoted\n\nafter');
    expect(text('<p>x<blockquote>quoted</bloc\u212Aquote>after</p>')).toBe('x\n\n> quoted\n\nafter');
    expect(text('<my-widget>custom</MY-WIDGET> <x-Y>z</x-y>')).toBe('custom z');
  });

  it('reads each attribute where it has a meaning, whatever element carries it', () => {
    expect(text('<span class="language-js">s</span><pre class="language-py">p</pre>')).toBe(
      's\n\n```py\np\n```',
    );
    expect(
      text('<p>a<span HIDDEN>b</span><b Style="display: none">c</b><i aria-hidden="true">d</i>e</p>'),
    ).toBe('ae');
    expect(text('<ol start="3"><li>x<li value="7">y<li>z</ol>')).toBe('3. x\n7. y\n8. z');
    // The first of duplicate attributes wins.
    expect(text('<a href="/one" HREF="/two">L</a>')).toBe('[L](https://docs.example.com/one)');
  });
});
