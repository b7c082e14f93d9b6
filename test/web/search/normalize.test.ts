import { describe, expect, it } from 'vitest';
import { cleanLine, cleanText, toResult, toResults } from '../../../src/web/search/normalize';

describe('cleanText', () => {
  it('strips tags, then decodes entities once', () => {
    expect(cleanText('The <strong>tokio</strong> &amp; <em>async-std</em> runtimes')).toBe(
      'The tokio & async-std runtimes',
    );
    expect(cleanText('use &lt;b&gt; for bold, &amp;amp; stays')).toBe('use <b> for bold, &amp; stays');
    expect(cleanText('&#x1F600; &#8212; &hellip; &nbsp;x')).toBe('😀 — … x');
    expect(cleanText('&#xD800; &bogus; &#0;')).toBe('&#xD800; &bogus; &#0;');
  });

  it('collapses spaces and blank lines, keeping single line breaks', () => {
    expect(cleanText('  a \t b\n\n\n  c  \n')).toBe('a b\nc');
    expect(cleanLine('a\n\nb')).toBe('a b');
  });
});

describe('toResult', () => {
  it('accepts url/href/link and snippet/body/description/content', () => {
    expect(toResult({ title: 't', href: 'https://a/', body: 'b' })).toEqual({
      title: 't',
      url: 'https://a/',
      snippet: 'b',
    });
    expect(toResult({ title: 't', link: 'http://a/', content: 'c' })).toEqual({
      title: 't',
      url: 'http://a/',
      snippet: 'c',
    });
    expect(toResult({ url: 'https://a/', description: 'd', age: '1 day ago' })).toEqual({
      title: 'https://a/',
      url: 'https://a/',
      snippet: 'd',
      age: '1 day ago',
    });
  });

  it('drops items without an http(s) URL', () => {
    expect(toResult({ title: 't', url: 'javascript:alert(1)' })).toBeUndefined();
    expect(toResult({ title: 't' })).toBeUndefined();
    expect(toResult('https://a/')).toBeUndefined();
    expect(
      toResults([null, { url: 'https://a/' }, { url: 'https://b/' }, { url: 'https://c/' }], 2),
    ).toHaveLength(2);
  });
});
