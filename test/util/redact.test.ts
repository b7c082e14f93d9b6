import { describe, expect, it } from 'vitest';
import { redactingStream, redactor } from '../../src/util/redact';

describe('redactor', () => {
  const key = 'sk-ant-mine-0123456789';
  it('replaces the given secrets and, by default, anything shaped like an Anthropic key', () => {
    expect(redactor([key])(`a ${key} b sk-ant-other-abcdefghij c`)).toBe('a [redacted] b [redacted] c');
  });
  it('for tool output, replaces only the exact secrets (key-shaped test data in a file stays)', () => {
    expect(redactor([key], { keyShapes: false })(`${key} sk-ant-fixture-abcdefghij`)).toBe(
      '[redacted] sk-ant-fixture-abcdefghij',
    );
  });
  it('ignores secrets shorter than 8 characters, which would mangle ordinary text', () => {
    expect(redactor(['abc', undefined])('abc abc')).toBe('abc abc');
  });
});

describe('redactingStream', () => {
  const key = 'sk-ant-mine-0123456789';
  const other = 'ghp_0123456789abcdef';
  const text = `start ${key} mid sk-ant-stranger-abcdefghijkl; ${other}\nend ${key}`;
  const pieces = (s: string, size: number) =>
    Array.from({ length: Math.ceil(s.length / size) }, (_, i) => s.slice(i * size, (i + 1) * size));

  it.each([1, 2, 3, 6, 7, 13, 64])(
    'in pieces of %i characters gives exactly the redaction of the whole text',
    (size) => {
      for (const keyShapes of [true, false]) {
        const stream = redactingStream([key, other], { keyShapes });
        const out = pieces(text, size).map((p) => stream.push(p));
        out.push(stream.end());
        expect(out.join('')).toBe(redactor([key, other], { keyShapes })(text));
        expect(out.join('')).not.toContain(key.slice(-6));
      }
    },
  );

  it('releases text as it comes and holds back only an end that could start a secret', () => {
    const stream = redactingStream([key]);
    const log = 'compiling 1/3\ncompiling 2/3\n';
    expect(stream.push(log)).toBe(log); // nothing here could start the key: no delay
    expect(stream.push(key.slice(0, 6))).toBe('');
    expect(stream.push(key.slice(6, 12))).toBe('');
    expect(stream.push(key.slice(12))).toBe(''); // key-shaped: held whole until it ends
    expect(stream.push(' done')).toBe('[redacted] done');
    expect(stream.end()).toBe('');
  });

  it('holds back the start of an exact secret that is not key-shaped, and only that', () => {
    const stream = redactingStream(['hunter2-password']);
    expect(stream.push('login: hunter')).toBe('login: ');
    expect(stream.push('2-pass')).toBe('');
    expect(stream.push('word ok')).toBe('[redacted] ok');
    expect(stream.push(' hun')).toBe(' ');
    expect(stream.push('gry')).toBe('hungry');
    expect(stream.end()).toBe('');
  });

  it('never splits a key-shaped run between pieces, so a redactor further down sees it whole', () => {
    const stream = redactingStream([], { keyShapes: false });
    expect(stream.push('token sk-an')).toBe('token ');
    expect(stream.push('t-fixture-abc')).toBe('');
    expect(stream.push('defgh, next')).toBe('sk-ant-fixture-abcdefgh, next');
    expect(stream.end()).toBe('');
  });

  it('keeps a surrogate pair in one piece', () => {
    const stream = redactingStream(['😀-secret']);
    expect(stream.push('ab😀')).toBe('ab');
    expect(stream.push('cd')).toBe('😀cd');
    expect(stream.end()).toBe('');
  });
});
