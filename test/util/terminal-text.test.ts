import { describe, expect, it } from 'vitest';
import { deepForTerminal, escapeJsonControls, forTerminal } from '../../src/util/terminal-text';

const ESC = '\u001b';
const BEL = '\u0007';
const ST = `${ESC}\\`;

describe('forTerminal', () => {
  it.each([
    ['OSC 52 clipboard write, BEL', `a${ESC}]52;c;cm0gLXJmIH4=${BEL}b`, 'ab'],
    ['OSC 52 clipboard write, ST', `a${ESC}]52;c;cm0gLXJmIH4=${ST}b`, 'ab'],
    ['OSC 0 title, BEL', `a${ESC}]0;pwned${BEL}b`, 'ab'],
    ['OSC 0 title, ST', `a${ESC}]0;pwned${ST}b`, 'ab'],
    ['OSC 8 hyperlink', `${ESC}]8;;https://evil.example/${ST}click${ESC}]8;;${ST}`, 'click'],
    ['CSI 2J clear screen', `a${ESC}[2J${ESC}[Hb`, 'ab'],
    ['CSI cursor up and erase line', `ok${ESC}[1A${ESC}[2Kfine`, 'okfine'],
    ['SGR colour (from tool output)', `${ESC}[1;31mred${ESC}[0m`, 'red'],
    ['8-bit CSI 0x9b', 'a\u009b2Jb\u009b31mc', 'abc'],
    ['8-bit OSC 0x9d with 8-bit ST', 'a\u009d0;title\u009cb', 'ab'],
    ['DCS string', `a${ESC}P+q544e${ST}b`, 'ab'],
    ['APC string', `a${ESC}_payload${ST}b`, 'ab'],
    ['PM string', `a${ESC}^payload${ST}b`, 'ab'],
    ['SOS string', `a${ESC}Xpayload${ST}b`, 'ab'],
    ['8-bit DCS and APC', 'a\u0090q\u009cb\u009fx\u009cc', 'abc'],
    ['charset and reset escapes', `a${ESC}(B${ESC}cb${ESC}7c`, 'abc'],
    ['lone ESC', `a${ESC}`, 'a'],
    ['ESC before a newline', `a${ESC}\nb`, 'a\nb'],
    [
      'C1 bytes 0x80-0x9f',
      `a${String.fromCharCode(...Array.from({ length: 32 }, (_, i) => 0x80 + i).filter((c) => ![0x90, 0x98, 0x9b, 0x9d, 0x9e, 0x9f].includes(c)))}b`,
      'ab',
    ],
    ['CR overwriting a line', 'safe command\rrm -rf ~', 'safe commandrm -rf ~'],
    ['CRLF', 'one\r\ntwo\r\n', 'one\ntwo\n'],
    ['backspace', 'ls\b\b\brm', 'lsrm'],
    ['other C0 and DEL', 'a\u0000\u0001\u000b\u000c\u007fb', 'ab'],
    ['newline and tab kept', 'a\tb\nc', 'a\tb\nc'],
    ['unterminated OSC keeps the text after it', `a${ESC}]0;title`, 'a0;title'],
    ['unicode kept', 'héllo — 😀 ünïcode', 'héllo — 😀 ünïcode'],
  ])('%s', (_name, input, expected) => {
    expect(forTerminal(input)).toBe(expected);
  });

  it('leaves nothing a terminal acts on, whatever the input', () => {
    let s = '';
    for (let c = 0; c < 0xa0; c++) s += `${String.fromCharCode(c)}x${ESC}${String.fromCharCode(c)}y`;
    expect(forTerminal(s)).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });
});

describe('deepForTerminal', () => {
  it('cleans every string of an event and keeps the rest', () => {
    const event = {
      type: 'tool_end',
      output: `x${ESC}[2J`,
      meta: { exitCode: 0, lines: [`${ESC}]0;t${BEL}a`] },
    };
    expect(deepForTerminal(event)).toEqual({
      type: 'tool_end',
      output: 'x',
      meta: { exitCode: 0, lines: ['a'] },
    });
    const clean = { type: 'text', text: 'plain' };
    expect(deepForTerminal(clean)).toBe(clean);
  });
});

describe('escapeJsonControls', () => {
  it('writes DEL and C1 as \\u escapes; the parsed value is the same', () => {
    const value = { text: `a\u009b2J\u007f${ESC}b` };
    const json = escapeJsonControls(JSON.stringify(value));
    expect(json).toBe('{"text":"a\\u009b2J\\u007f\\u001bb"}');
    expect(JSON.parse(json)).toEqual(value);
  });
});
