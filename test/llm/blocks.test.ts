import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blocksOf } from '../../src/llm/blocks';
import type { ContentBlockParam } from '../../src/llm/types';

const SRC = resolve(import.meta.dirname, '../../src');

describe('blocksOf', () => {
  it('makes a string content one text block, and copies a list of blocks', () => {
    expect(blocksOf('hi')).toEqual([{ type: 'text', text: 'hi' }]);
    const content: ContentBlockParam[] = [{ type: 'text', text: 'a' }];
    const blocks = blocksOf(content);
    expect(blocks).toEqual(content);
    expect(blocks).not.toBe(content);
  });

  it('is the only place a string content becomes a text block', () => {
    const spelled = /typeof [\w.]+ === 'string'\s*\?\s*\[\{ type: 'text'/;
    const files = (readdirSync(SRC, { recursive: true }) as string[]).filter((f) => /\.tsx?$/.test(f));
    const others = files.filter(
      (f) => f !== join('llm', 'blocks.ts') && spelled.test(readFileSync(join(SRC, f), 'utf8')),
    );
    expect(others).toEqual([]);
  });
});
