import { describe, expect, it } from 'vitest';
import {
  decodeBody,
  detectCharset,
  normaliseCharset,
  parseContentType,
  prescanCharset,
} from '../../src/web/charset';

const bytes = (s: string) => Buffer.from(s, 'latin1');

describe('charset', () => {
  it('parses Content-Type with quoted and oddly cased charset', () => {
    expect(parseContentType('Text/HTML; Charset="Shift_JIS"')).toEqual({
      mime: 'text/html',
      charset: 'shift_jis',
    });
    expect(parseContentType('application/json')).toEqual({ mime: 'application/json' });
    expect(parseContentType(undefined)).toEqual({ mime: '' });
  });

  it('maps labels as browsers do (iso-8859-1 and ascii are windows-1252)', () => {
    expect(normaliseCharset('ISO-8859-1')).toBe('windows-1252');
    expect(normaliseCharset('us-ascii')).toBe('windows-1252');
    expect(normaliseCharset('x-sjis')).toBe('cp932');
    expect(normaliseCharset('gb2312')).toBe('gbk');
    expect(normaliseCharset('koi8-r')).toBe('koi8-r');
    expect(normaliseCharset('no-such-charset')).toBeUndefined();
  });

  it('finds <meta charset>, http-equiv and the XML declaration, skipping comments', () => {
    expect(prescanCharset(bytes('<head><meta charset=windows-1252>'))).toBe('windows-1252');
    expect(
      prescanCharset(bytes('<meta http-equiv="Content-Type" content="text/html; charset=EUC-JP">')),
    ).toBe('euc-jp');
    expect(prescanCharset(bytes('<?xml version="1.0" encoding="ISO-8859-2"?><r/>'))).toBe('iso-8859-2');
    expect(prescanCharset(bytes('<!-- <meta charset="koi8-r"> --><meta charset="utf-8">'))).toBe('utf-8');
    expect(prescanCharset(bytes(`${' '.repeat(1024)}<meta charset="koi8-r">`))).toBeUndefined();
  });

  it('falls back through unknown labels to UTF-8, and reads a <meta> claiming UTF-16 as UTF-8', () => {
    expect(detectCharset(bytes('<meta charset="bogus">'), 'also-bogus')).toEqual({
      charset: 'utf-8',
      bomLength: 0,
    });
    expect(detectCharset(bytes('<meta charset="utf-16">'))).toEqual({ charset: 'utf-8', bomLength: 0 });
  });

  it('decodes 0x80-0x9F of a latin1-labelled page as windows-1252, not C1 controls', () => {
    expect(decodeBody(bytes('\x80 \x93x\x94 \x99'), 'text/plain; charset=iso-8859-1').text).toBe('€ “x” ™');
  });

  it('decodes UTF-16 with a BOM and drops the BOM', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hé', 'utf16le')]);
    expect(decodeBody(le, 'text/plain; charset=utf-8')).toEqual({ text: 'hé', charset: 'utf-16le' });
  });
});
