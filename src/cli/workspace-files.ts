/**
 * The workspace's files for the `@` picker: the walk `glob` makes (.gitignore honoured, `.git`
 * never entered), less what a deny rule keeps from `read_file`, binary files and names holding a
 * control, bidi or zero-width character or a line break (the picker would draw them, and an `@path`
 * could not say them; `glob` still finds them), each folder that
 * holds a listed file just before its first one (`src/agent/`), found in batches so
 * the picker shows the first ones while a big tree is still being walked, and kept until a turn or
 * a `!cmd` may have changed the tree.
 */
import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { walkFiles } from '../tools/search-files';
import { looksBinary } from '../tools/text-file';
import { hasUnshowable } from '../util/hidden-chars';
import type { FileSource } from '../util/shapes';

/** Extensions of files that are not text: left out without opening them. */
const BINARY = new Set(
  (
    'a o so dylib dll exe bin obj lib class jar war pyc pyo wasm node ' +
    'zip gz tgz bz2 xz zst 7z rar tar lz4 br deb rpm dmg iso img ' +
    'pdf doc docx xls xlsx ppt pptx odt ods odp ' +
    'ttf otf woff woff2 eot ico bmp tif tiff psd heic avif ' +
    'mp3 mp4 m4a mov avi mkv webm wav flac ogg opus ' +
    'sqlite sqlite3 db parquet npy pkl pt onnx'
  ).split(' '),
);
/** Extensions of text files and of the images `@` attaches: listed without opening them. */
const KNOWN = new Set(
  (
    'png jpg jpeg gif webp svg ' +
    'ts tsx mts cts js jsx mjs cjs json jsonc json5 md mdx txt rst adoc html htm css scss sass less vue svelte ' +
    'py rb go rs java kt kts scala c h cc cpp cxx hpp hh cs fs swift m mm php pl lua r jl dart ex exs erl hs ml ' +
    'sh bash zsh fish ps1 bat cmd sql graphql proto yml yaml toml ini cfg conf env lock xml csv tsv log ' +
    'gradle properties tf hcl nix cmake mk diff patch gitignore gitattributes editorconfig npmrc'
  ).split(' '),
);

/** Bytes read from a file of another extension (or none) to tell text from binary. */
const SNIFF_BYTES = 1024;
/** The first batch is shown once this many files are found; later ones at most every {@link BATCH_MS}. */
const FIRST_BATCH = 200;
const BATCH_MS = 50;
/** A walk stops after this many files (a workspace that is the home folder, say). */
const MAX_PICKER_FILES = 250_000;

async function isBinaryFile(abs: string): Promise<boolean> {
  const file = await open(abs, 'r').catch(() => undefined);
  if (!file) return true;
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await file.read(buf, 0, SNIFF_BYTES, 0);
    return looksBinary(buf.subarray(0, bytesRead));
  } finally {
    await file.close();
  }
}

/** Whether the file `rel` (at `abs`) belongs in the picker, judged by extension, else by its first bytes. */
async function isListed(abs: string, rel: string): Promise<boolean> {
  const ext = extname(rel).slice(1).toLowerCase();
  if (BINARY.has(ext)) return false;
  if (KNOWN.has(ext)) return true;
  return !(await isBinaryFile(abs));
}

/**
 * A {@link FileSource} over the workspace root `root()` (read at each walk, so `/worktree` is
 * followed: a new root drops the old list at once). `keepsOut(abs)` true leaves a file out (a deny
 * rule of the session's policy). Walk errors end the walk with what was found.
 */
export class WorkspaceFiles implements FileSource {
  #paths: readonly string[] = [];
  #loading = false;
  #stale = true;
  /** The root {@link paths} were walked from. */
  #root: string | undefined;
  #walk: AbortController | undefined;
  readonly #listeners = new Set<() => void>();

  readonly #rootNow: () => string;
  readonly #keepsOut: (abs: string) => boolean;
  readonly #limit: number;

  /** @param limit most files listed (a walk stops there); default 250,000. */
  constructor(root: () => string, keepsOut: (abs: string) => boolean, limit = MAX_PICKER_FILES) {
    this.#rootNow = root;
    this.#keepsOut = keepsOut;
    this.#limit = limit;
  }

  get paths(): readonly string[] {
    return this.#paths;
  }

  get loading(): boolean {
    return this.#loading;
  }

  /** The tree may have changed (a turn or a `!cmd` ran): the next {@link refresh} walks again. */
  markStale(): void {
    this.#stale = true;
  }

  watch(onChange: () => void): () => void {
    this.#listeners.add(onChange);
    return () => this.#listeners.delete(onChange);
  }

  refresh(): void {
    const root = this.#rootNow();
    const moved = root !== this.#root;
    if (!moved && (this.#loading || !this.#stale)) return;
    this.#walk?.abort();
    if (moved) this.#paths = [];
    this.#root = root;
    this.#stale = false;
    void this.#run(root, moved || this.#paths.length === 0);
  }

  #changed(): void {
    for (const l of this.#listeners) l();
  }

  /** Walks `root`; `growing`: show each batch (no list yet), else swap the list in at the end. */
  async #run(root: string, growing: boolean): Promise<void> {
    const walk = new AbortController();
    this.#walk = walk;
    this.#loading = true;
    this.#changed();
    const found: string[] = [];
    const folders = new Set<string>();
    let shownAt = 0;
    let shown = 0;
    const show = () => {
      shown = found.length;
      shownAt = Date.now();
      this.#paths = found.slice();
      this.#changed();
    };
    try {
      await walkFiles(
        root,
        async (entry, ignored) => {
          if (ignored || hasUnshowable(entry.rel) || this.#keepsOut(entry.abs)) return;
          if (!(await isListed(entry.abs, entry.rel))) return;
          for (let i = entry.rel.indexOf('/'); i > 0; i = entry.rel.indexOf('/', i + 1)) {
            const folder = entry.rel.slice(0, i + 1);
            if (folders.has(folder)) continue;
            folders.add(folder);
            found.push(folder);
          }
          found.push(entry.rel);
          if (found.length >= this.#limit) return 'stop';
          const due = shown === 0 ? found.length >= FIRST_BATCH : Date.now() - shownAt >= BATCH_MS;
          if (growing && due) {
            show();
            // Let the keys and the picker's drawing in between batches.
            await new Promise((r) => setImmediate(r));
          }
        },
        walk.signal,
      );
    } catch {
      // Aborted (a new root), or the folder went away: what was found stands.
    }
    if (this.#walk !== walk) return;
    this.#walk = undefined;
    this.#loading = false;
    this.#paths = found;
    this.#changed();
  }
}
