import { describe, expect, it } from 'vitest';
import { imagePathOf } from '../../../src/tui/input/pasted-path';

describe('a pasted image path', () => {
  it('is read as terminals paste a dragged file: bare, quoted, escaped or as a file:// URL', () => {
    expect(imagePathOf('/home/ann/shot.png')).toBe('/home/ann/shot.png');
    expect(imagePathOf("'/home/ann/my shot.PNG' ")).toBe('/home/ann/my shot.PNG');
    expect(imagePathOf('"/tmp/a b.jpeg"')).toBe('/tmp/a b.jpeg');
    expect(imagePathOf('/home/ann/my\\ shot.webp')).toBe('/home/ann/my shot.webp');
    expect(imagePathOf('file:///home/ann/my%20shot.gif')).toBe('/home/ann/my shot.gif');
    expect(imagePathOf('docs/diagram.jpg')).toBe('docs/diagram.jpg');
  });

  it('is nothing for other pastes: text, other files, several lines', () => {
    expect(imagePathOf('fix the bug in shot.png please')).toBeUndefined();
    expect(imagePathOf('/home/ann/notes.txt')).toBeUndefined();
    expect(imagePathOf('/a.png\n/b.png')).toBeUndefined();
    expect(imagePathOf('')).toBeUndefined();
  });
});
