import { readdir, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { Agent } from '../agent/agent';
import type { ContentBlockParam } from '../llm/types';
import { atReferences } from '../skills/markdown-code';
import { readFileTool } from '../tools/read-file';
import type { ToolResult } from '../tools/tool';

/** Most entries of an `@dir/` listing. */
const MAX_LISTED = 200;

/** The parts of the session a prompt's mentions are read with. */
type MentionHost = Pick<Agent, 'spec' | 'registry' | 'scrub'>;

/** What one `@path` adds to the message: text after the prompt, and an image when it is one. */
interface Mention {
  text: string;
  image?: AttachedImage;
}

/** `rel` as the model reads it: `/` between parts. */
const shownPath = (rel: string) => rel.split('\\').join('/');

async function listing(abs: string, rel: string, host: MentionHost): Promise<string> {
  const entries = await readdir(abs, { withFileTypes: true });
  const names = entries
    .filter((e) => !host.spec.policy.keepsOut(resolve(abs, e.name)))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort();
  const shown = names.slice(0, MAX_LISTED);
  const more = names.length > shown.length ? `\n… and ${names.length - shown.length} more` : '';
  return `Listing of ${rel}/ (${names.length} entr${names.length === 1 ? 'y' : 'ies'}):\n${shown.join('\n')}${more}`;
}

/** One `@ref`: its content, a notice saying why it was not read, or undefined (not a path: left alone). */
async function mention(ref: string, host: MentionHost, signal: AbortSignal): Promise<Mention | undefined> {
  const root = host.spec.workspace;
  if (ref.startsWith('~')) return undefined;
  const abs = resolve(root, ref);
  const rel = relative(root, abs);
  if (rel.startsWith('..') || isAbsolute(rel))
    return { text: `[@${ref} was not read: it is outside the workspace]` };
  const st = await stat(abs).catch(() => undefined);
  if (!st) {
    // `@someone` or `@types/node` names no file and no folder of the workspace: a word, not a path.
    const parent = await stat(dirname(abs)).catch(() => undefined);
    const pathLike = parent?.isDirectory() && (dirname(abs) !== root || /\.\w+$/.test(ref));
    return pathLike ? { text: `[@${ref} was not read: there is no such file]` } : undefined;
  }
  const shown = shownPath(rel || '.');
  if (host.spec.policy.keepsOut(abs))
    return { text: `[@${ref} was not read: a deny rule keeps ${shown} from read_file]` };
  if (st.isDirectory()) return { text: host.scrub(await listing(abs, shown, host)) };
  const result = await host.registry.run(
    readFileTool,
    { path: rel },
    {
      cwd: root,
      signal,
      emit: () => {},
      state: host.spec.toolState,
      env: host.registry.env,
      roots: host.registry.roots,
    },
  );
  if (result.isError) return { text: `[@${ref} was not read: ${host.scrub(result.output)}]` };
  const image = result.images?.[0];
  if (image)
    return { text: `[@${ref}: ${result.output.replace(/; the image follows\.$/, '')}; attached]`, image };
  return { text: `Contents of ${shown}:\n${host.scrub(result.output)}` };
}

/** An image that goes with the person's message (a mention, `--image`, a pasted one). */
export type AttachedImage = NonNullable<ToolResult['images']>[number];

/**
 * The person's prompt with its `@path` mentions read (an `@` at the start or after whitespace, outside
 * code; emails and `@someone` are left alone): a text file's numbered lines (capped as read_file caps
 * them, the cut stated), a folder's listing, an image as an image block; a missing or binary file, a
 * path outside the workspace or one a deny rule keeps from read_file stays as written, with a notice
 * after the prompt. `attached` images (`--image`, a paste) follow the mentioned ones. Without
 * mentions or images the prompt comes back as it was.
 */
export async function withMentions(
  prompt: string,
  host: MentionHost,
  signal: AbortSignal,
  attached: readonly AttachedImage[] = [],
): Promise<string | ContentBlockParam[]> {
  const found: Mention[] = [];
  for (const ref of atReferences(prompt)) {
    // A custom command already inlined this file.
    if (prompt.includes(`Contents of ${ref}:`)) continue;
    const got = await mention(ref, host, signal);
    if (got) found.push(got);
  }
  const text = found.length ? `${prompt}\n\n${found.map((m) => m.text).join('\n\n')}` : prompt;
  return withImages(text, [...found.flatMap((m) => (m.image ? [m.image] : [])), ...attached]);
}

/** `text` followed by `images` as image blocks; `text` as it is without images. */
export function withImages(text: string, images: readonly AttachedImage[]): string | ContentBlockParam[] {
  if (images.length === 0) return text;
  return [
    { type: 'text', text },
    ...images.map((i): ContentBlockParam => ({
      type: 'image',
      source: { type: 'base64', media_type: i.mediaType, data: i.data },
    })),
  ];
}
