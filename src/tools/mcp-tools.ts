/**
 * The `mcp` tool source: one `mcp__SERVER__TOOL` tool per tool an MCP server lists (the names
 * other agents use, so rules carry over), its input JSON Schema sent as the server gave it, kind
 * `execute` (it asks), its answer fenced as a stranger's text.
 */
import type { McpCallResult, McpServerTools, McpToolInfo } from '../util/mcp-shapes';
import { fenced, makeFence, withoutControls } from './fence';
import { jsonSchemaParams } from './json-schema';
import { imageSize } from '../util/images';
import { defineTool, ToolError, type ImageMediaType, type Tool, type ToolResult } from './tool';
import { capQuote, headTail, MAX_OUTPUT_CHARS } from './truncate';
import { withCommas } from '../util/text';

/** Most bytes of a tool description the model reads (UTF-8); the rest is cut with a note. */
const MAX_MCP_DESCRIPTION_BYTES = 2_048;
/** The longest tool name the Messages API takes. */
const MAX_NAME = 64;
/** Room the fence's lines take, so that the capped body and the fence fit the house cap together. */
const FENCE_ROOM = 400;

/** `mcp__SERVER__TOOL`, with any character the API refuses in a name as `_`. */
const mcpToolName = (server: string, tool: string): string =>
  `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, '_');

/** `text` cut to at most `max` UTF-8 bytes at a character boundary, with a note when cut. */
function capBytes(text: string, max: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= max) return text;
  const note = ' […description cut]';
  let end = max - Buffer.byteLength(note);
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8') + note;
}

/** Most images of one answer sent to the model; the rest are named. */
const MAX_MCP_IMAGES = 4;
/** Most base64 characters of one image sent to the model (about 1.5 MB of image). */
const MAX_MCP_IMAGE_CHARS = 2_000_000;
const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const size = (data: unknown) => `${withCommas(Math.floor((str(data).length * 3) / 4))} bytes`;

/** The images of `r` the model gets (capped in size and count), and for each image block its line. */
function imagesOf(r: McpCallResult): {
  images: NonNullable<ToolResult['images']>;
  lines: Map<object, string>;
  shown: string[];
} {
  const images: { mediaType: ImageMediaType; data: string }[] = [];
  const lines = new Map<object, string>();
  const shown: string[] = [];
  for (const b of r.content) {
    if (b.type !== 'image') continue;
    const type = str(b.mimeType);
    const data = str(b.data);
    const px = imageSize(Buffer.from(data.slice(0, 64 * 1024), 'base64'), type);
    const dims = px ? ` ${px.width}x${px.height}` : '';
    const why = !IMAGE_TYPES.has(type)
      ? 'a type the model does not take'
      : data.length > MAX_MCP_IMAGE_CHARS
        ? 'larger than the cap'
        : images.length >= MAX_MCP_IMAGES
          ? `more than ${MAX_MCP_IMAGES} images`
          : undefined;
    if (!why) {
      images.push({ mediaType: type as ImageMediaType, data });
      shown.push(`[image${dims}]`);
    }
    lines.set(
      b,
      `[image ${type}${dims}, ${size(data)}${why ? `: not shown to you, ${why}` : ': attached below'}]`,
    );
  }
  return { images, lines, shown };
}

/** What a content block says, as text: a resource as its URI (and its text), binary as its size. */
function blockText(b: Record<string, unknown>, images: Map<object, string>): string | undefined {
  switch (b.type) {
    case 'text':
      return str(b.text);
    case 'image':
      return images.get(b);
    case 'audio':
      return `[${String(b.type)} ${str(b.mimeType)}, ${size(b.data)}]`;
    case 'resource_link':
      return `[resource link ${str(b.uri)}${b.name ? ` (${str(b.name)})` : ''}${b.mimeType ? `, ${str(b.mimeType)}` : ''}]`;
    case 'resource': {
      const r = (b.resource ?? {}) as Record<string, unknown>;
      const head = `[resource ${str(r.uri)}${r.mimeType ? `, ${str(r.mimeType)}` : ''}]`;
      return typeof r.text === 'string' ? `${head}\n${r.text}` : `${head} ${size(r.blob)} of binary data`;
    }
    default:
      return `[${capQuote(String(b.type))} content]`;
  }
}

/**
 * A call's answer: `output` as the model reads it (text blocks joined, other blocks as a line naming
 * them, `structuredContent` as JSON when no block has text; fenced, with `server` and `tool` named
 * in the markers, the body within the house cap first so that the end marker always survives), the
 * images it gets as image blocks, and a title for the person (`3 lines [image 32x32]`).
 */
function mcpResult(
  server: string,
  tool: string,
  r: McpCallResult,
): { output: string; images: NonNullable<ToolResult['images']>; title: string } {
  const { images, lines, shown } = imagesOf(r);
  const parts = r.content
    .map((b) => blockText(b, lines))
    .filter((t): t is string => t !== undefined && t !== '');
  const hasText = r.content.some((b) => b.type === 'text' && typeof b.text === 'string' && b.text !== '');
  if (!hasText && r.structuredContent !== undefined) parts.push(JSON.stringify(r.structuredContent, null, 2));
  const body = headTail(withoutControls(parts.join('\n')), { maxChars: MAX_OUTPUT_CHARS - FENCE_ROOM });
  const count = body.trim() ? body.split('\n').length : 0;
  const title = [count ? `${count} line${count === 1 ? '' : 's'}` : 'no text', ...shown].join(' ');
  if (body.trim() === '')
    return {
      output: r.isError ? `${tool} failed and said nothing` : `${tool} answered with no content`,
      images,
      title,
    };
  return {
    output: fenced(makeFence('mcp result'), `server ${server}, tool ${tool}`, body).join('\n'),
    images,
    title,
  };
}

/** The codey tool for `info` of `conn`. */
function mcpTool(conn: McpServerTools, info: McpToolInfo): Tool {
  const name = mcpToolName(conn.server, info.name);
  const readOnly = info.annotations?.readOnlyHint === true;
  const description = capBytes(
    (info.description ?? '').trim() || `Tool ${info.name} of the MCP server ${conn.server}.`,
    MAX_MCP_DESCRIPTION_BYTES,
  );
  const schema = jsonSchemaParams({ ...info.inputSchema, type: 'object' });
  return defineTool({
    name,
    displayName: 'Mcp',
    kind: 'execute',
    description,
    schema,
    describe: (args) => {
      const json = JSON.stringify(args);
      return {
        summary: `${conn.server} › ${info.name}${readOnly ? ' (the server says it only reads)' : ''}`,
        detail: `${conn.server} › ${info.name}${json === '{}' ? '' : ` ${json}`}`,
        rememberable: false,
        toolNoun: `${conn.server} › ${info.name}`,
      };
    },
    async run(args, ctx): Promise<ToolResult> {
      let r: McpCallResult;
      try {
        r = await conn.call(info.name, args, {
          signal: ctx.signal,
          onProgress: (message) => ctx.emit({ message }),
        });
      } catch (err) {
        // Returned, not thrown: after an interrupt the result still says the server was told.
        if (ctx.signal.aborted)
          return {
            output: `the call was cancelled on the MCP server ${conn.server} (${info.name})`,
            isError: true,
            code: 'interrupted',
          };
        throw new ToolError(err instanceof Error ? err.message : String(err), 'unavailable');
      }
      const { output, images, title } = mcpResult(conn.server, info.name, r);
      return {
        output,
        ...(r.isError ? {} : { title }),
        ...(images.length && { images }),
        ...(r.isError && { isError: true, code: 'failed' as const }),
        untrusted: `MCP server ${conn.server} (${info.name})`,
      };
    },
  });
}

/**
 * The tools of every connection, in order; a name the API cannot take (longer than 64) or one
 * already taken is left out with a notice.
 */
export function mcpTools(conns: readonly McpServerTools[]): { tools: Tool[]; notices: string[] } {
  const tools: Tool[] = [];
  const notices: string[] = [];
  const seen = new Set<string>();
  for (const conn of conns) {
    for (const info of conn.tools) {
      const name = mcpToolName(conn.server, info.name);
      if (name.length > MAX_NAME || seen.has(name)) {
        notices.push(
          `codey: MCP tool ${capQuote(info.name)} of ${conn.server} left out: ${seen.has(name) ? 'another tool has its name' : `its name ${name.slice(0, 70)}… is longer than ${MAX_NAME}`}`,
        );
        continue;
      }
      seen.add(name);
      tools.push(mcpTool(conn, info));
    }
  }
  return { tools, notices };
}
