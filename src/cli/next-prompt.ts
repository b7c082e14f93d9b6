/**
 * What waits for the person's next prompt and goes with it: the `!cmd` runs since the last one
 * (as notes before the prompt's text, see shell-context.ts) and the images pasted with Ctrl+V or
 * as a dropped file's path.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ShellRun } from '../session/store';
import { imageLabel, type LoadedImage } from '../util/images';
import { clipboardImage } from './clipboard';
import { imageFiles } from './image-files';
import { shellNote } from './shell-context';

export class NextPrompt {
  readonly #images: LoadedImage[] = [];
  readonly #shell: ShellRun[] = [];

  /** A `!cmd` the person ran: told to the model with the next prompt. */
  noteShell(run: ShellRun): void {
    this.#shell.push(run);
  }

  /** Ctrl+V: see {@link clipboardImage}. Resolves with the line to show. */
  async pasteImage(workspace: string, env: Record<string, string | undefined>): Promise<string> {
    const got = await clipboardImage(workspace, env);
    return got.ok ? this.#keep(got.image, 'pasted') : got.message;
  }

  /**
   * A pasted image path (absolute, or from `workspace`), checked as `--image` files are. Undefined
   * when there is no such file; `attached: false` with the reason when it is no image that can go.
   */
  async attachImageFile(
    path: string,
    workspace: string,
  ): Promise<{ attached: boolean; line: string } | undefined> {
    if (!(await stat(resolve(workspace, path)).catch(() => undefined))?.isFile()) return undefined;
    const got = await imageFiles([path], workspace);
    if (!got.ok) return { attached: false, line: got.error.replace(/^--image /, '') };
    return { attached: true, line: this.#keep(got.images[0]!, 'attached') };
  }

  /**
   * What goes with `prompt`, emptied: its text with the `!cmd` notes first, the runs themselves (for
   * the store) and the images.
   */
  take(prompt: string): { text: string; shell: ShellRun[]; images: LoadedImage[] } {
    const shell = this.#shell.splice(0);
    const context = shell.map((c) => shellNote(c.command, c.exit, c.output)).join('\n\n');
    return { text: context ? `${context}\n\n${prompt}` : prompt, shell, images: this.#images.splice(0) };
  }

  /** The images waiting for the next prompt, as labels (`[image 64×32, 1.2 KB]`), oldest first. */
  images(): string[] {
    return this.#images.map(imageLabel);
  }

  /** Drops what waits (`/clear`: a new conversation starts without them). */
  clear(): void {
    this.#images.length = 0;
    this.#shell.length = 0;
  }

  /** Keeps `image`; the line saying so. */
  #keep(image: LoadedImage, how: 'pasted' | 'attached'): string {
    this.#images.push(image);
    const n = this.#images.length;
    return `${imageLabel(image)} ${how}: ${n === 1 ? 'it goes' : `${n} images go`} with your next message`;
  }
}
