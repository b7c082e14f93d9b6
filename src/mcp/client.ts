/**
 * MCP client connections (DESIGN.md "Seams: MCP"): the servers of a session opened in parallel
 * once at start, their tools listed, called, and closed at exit. Loaded only when a server is
 * configured, so a start without MCP never loads the SDK.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { StartPiped } from '../util/exec-shapes';
import type {
  McpCallOptions,
  McpCallResult,
  McpPromptInfo,
  McpServerState,
  McpServerTools,
  McpToolInfo,
} from '../util/mcp-shapes';
import { ChildTransport } from './child-transport';
import type { McpServerSpec } from './servers';
import { oneLine } from '../util/text';

/** How long a call may go without a progress notification before it fails (ms). */
const CALL_TIMEOUT_MS = 10 * 60_000;
/** Characters of an error kept for `/mcp`. */
const ERROR_CHARS = 300;

/** The session's MCP servers: their states, the tools of those that answered in time, and how to close them. */
export interface McpConnections {
  /** The servers, in the order configured, as they are now. */
  states(): McpServerState[];
  /** The tools of each server that answered before the deadline, in the order configured. */
  readonly tools: readonly McpServerTools[];
  /** One line per server that failed or was late. */
  readonly notices: readonly string[];
  /** The prompts of the servers that answered in time, each with its server. */
  prompts(): { server: string; prompt: McpPromptInfo }[];
  /**
   * Get `name` of `server` with `args`: its messages' text, joined.
   * @throws {@link McpCallError} when the server is not running; the SDK's error when the server refuses.
   */
  getPrompt(server: string, name: string, args: Record<string, string>, signal: AbortSignal): Promise<string>;
  /**
   * Start `name` again (one that stopped, failed or was late): its tools keep the names listed at
   * start; one it no longer lists answers with the server's error. Resolves with a sentence for the
   * person saying how it went; never rejects.
   */
  restart(name: string): Promise<string>;
  /** Close every server (stdio children: their whole process group). Never rejects. */
  close(): Promise<void>;
}

export interface OpenOptions {
  /** The workspace: where stdio servers start unless their entry says `cwd`. */
  cwd: string;
  /** The person's environment; a stdio server gets it less codey's keys, then its own `env`. */
  env: Readonly<Record<string, string | undefined>>;
  /** How long start-up waits for every server to answer (ms). */
  timeoutMs: number;
  /** codey's one process runner for long-lived children. */
  startPiped: StartPiped;
  /** codey's version, for the client's name in the handshake. */
  version: string;
}

/** Why a call could not be made (the server is not running, the request failed), as a sentence. */
class McpCallError extends Error {
  override name = 'McpCallError';
}

const short = (text: string) => oneLine(text, ERROR_CHARS);
const messageOf = (err: unknown) => short(err instanceof Error ? err.message : String(err));

/** One server's connection and what is known about it. */
class Server implements McpServerTools {
  state: McpServerState;
  tools: McpToolInfo[] = [];
  prompts: McpPromptInfo[] = [];
  client?: Client;
  transport?: Transport;
  closing = false;

  constructor(
    readonly spec: McpServerSpec,
    private readonly opts: OpenOptions,
  ) {
    this.state = {
      name: spec.name,
      transport: spec.transport,
      origin: spec.origin,
      status: 'starting',
      tools: [],
      prompts: [],
    };
  }

  get server(): string {
    return this.spec.name;
  }

  /** The stderr tail (stdio) or the error, for "last error". */
  private why(err?: unknown): string {
    const tail =
      this.transport instanceof ChildTransport
        ? this.transport.stderrTail.trim().split('\n').at(-1)
        : undefined;
    const ended = this.transport instanceof ChildTransport ? this.transport.ended : undefined;
    const how = ended
      ? (ended.error ?? (ended.signal ? `ended by ${ended.signal}` : `exited with ${ended.exitCode}`))
      : undefined;
    return short([err === undefined ? undefined : messageOf(err), how, tail].filter(Boolean).join('; '));
  }

  private transportFor(kind: 'stdio' | 'http' | 'sse'): Transport {
    const spec = this.spec;
    if (spec.transport === 'stdio')
      return new ChildTransport(
        {
          file: spec.command,
          args: spec.args,
          env: spec.env,
          ...(spec.cwd !== undefined && { cwd: spec.cwd }),
        },
        this.opts.startPiped,
        { cwd: this.opts.cwd, env: this.opts.env },
      );
    const url = new URL(spec.url);
    const requestInit = { headers: spec.headers };
    return kind === 'sse'
      ? new SSEClientTransport(url, {
          requestInit,
          eventSourceInit: {
            fetch: (u, init) =>
              fetch(u, {
                ...init,
                headers: { ...(init?.headers as Record<string, string>), ...spec.headers },
              }),
          },
        })
      : new StreamableHTTPClientTransport(url, { requestInit });
  }

  private async connectWith(kind: 'stdio' | 'http' | 'sse'): Promise<void> {
    const client = new Client({ name: 'codey', version: this.opts.version });
    const transport = this.transportFor(kind);
    this.client = client;
    this.transport = transport;
    client.onclose = () => {
      if (this.closing || this.state.status !== 'connected') return;
      this.state = {
        ...this.state,
        status: 'stopped',
        lastError: this.why() || 'the server closed the connection',
      };
    };
    await client.connect(transport);
  }

  /** Connect and list the tools (and prompts); throws why it could not. */
  async open(): Promise<void> {
    try {
      await this.connectWith(this.spec.transport);
    } catch (err) {
      // A server that does not speak Streamable HTTP may still speak the older HTTP+SSE.
      if (this.spec.transport !== 'http' || this.closing) throw new Error(this.why(err));
      await this.client?.close().catch(() => {});
      try {
        await this.connectWith('sse');
      } catch {
        throw new Error(this.why(err));
      }
    }
    const client = this.client as Client;
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      for (const t of page.tools) tools.push(t as McpToolInfo);
      cursor = page.nextCursor;
    } while (cursor);
    if (client.getServerCapabilities()?.prompts) {
      this.prompts = await client
        .listPrompts()
        .then((p) => p.prompts as McpPromptInfo[])
        .catch(() => []);
    }
    this.tools = tools;
    const prompts = this.prompts.map((p) => p.name);
    this.state = { ...this.state, status: 'connected', tools: tools.map((t) => t.name), prompts };
  }

  async call(tool: string, args: Record<string, unknown>, opts: McpCallOptions): Promise<McpCallResult> {
    const client = this.client;
    if (!client || this.state.status !== 'connected')
      throw new McpCallError(
        `server ${this.spec.name} is not running${this.state.lastError ? ` (${this.state.lastError})` : ''}`,
      );
    try {
      const r = await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: opts.signal,
        timeout: CALL_TIMEOUT_MS,
        resetTimeoutOnProgress: true,
        onprogress: (p) => {
          const of = p.total === undefined ? '' : `/${p.total}`;
          opts.onProgress?.(p.message ?? `progress ${p.progress}${of}`);
        },
      });
      if (!Array.isArray(r.content) && 'toolResult' in r)
        return { content: [{ type: 'text', text: JSON.stringify(r.toolResult) }], isError: false };
      return {
        content: (r.content ?? []) as Record<string, unknown>[],
        ...(r.structuredContent !== undefined && { structuredContent: r.structuredContent }),
        isError: r.isError === true,
      };
    } catch (err) {
      if (opts.signal.aborted) throw err;
      if ((this.state.status as string) === 'stopped')
        throw new McpCallError(
          `server ${this.spec.name} is not running (${this.state.lastError ?? 'it ended'})`,
        );
      throw new McpCallError(`the call to ${this.spec.name} failed: ${this.why(err)}`);
    }
  }

  /** The prompt `name` with `args`, its messages' text joined (a resource as its URI and text). */
  async prompt(name: string, args: Record<string, string>, signal: AbortSignal): Promise<string> {
    const client = this.client;
    if (!client || this.state.status !== 'connected')
      throw new McpCallError(`server ${this.spec.name} is not running`);
    const r = await client.getPrompt({ name, arguments: args }, { signal });
    return r.messages
      .map((m) => {
        const c = m.content as Record<string, unknown>;
        if (c.type === 'text') return String(c.text);
        const res = c.resource as Record<string, unknown> | undefined;
        if (c.type === 'resource' && res)
          return `[resource ${String(res.uri)}]${typeof res.text === 'string' ? `\n${res.text}` : ''}`;
        return `[${String(c.type)} content]`;
      })
      .join('\n\n');
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.state.status === 'connected') this.state = { ...this.state, status: 'stopped' };
    await this.client?.close().catch(() => {});
    await this.transport?.close().catch(() => {});
  }

  /** End a stdio child at once (the process's `exit` handler). */
  kill(): void {
    if (this.transport instanceof ChildTransport) this.transport.kill();
  }
}

/** `work`, or a rejection once `ms` have passed. */
async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Open every server of `specs` in parallel and wait until all have answered (connected and listed
 * their tools) or `opts.timeoutMs` has passed; a server late or failed is one notice and brings no
 * tool. A late server is closed at the deadline. Until `close`, a handler on the process's
 * `exit` kills every stdio child's group, so no server outlives codey on any exit path. Never rejects.
 */
export async function openMcp(specs: readonly McpServerSpec[], opts: OpenOptions): Promise<McpConnections> {
  const servers = specs.map((s) => new Server(s, opts));
  const killAll = () => servers.forEach((s) => s.kill());
  process.once('exit', killAll);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, opts.timeoutMs);
  });
  const opened = servers.map((s) =>
    s.open().then(
      () => true,
      (err: unknown) => {
        // A late server closed at the deadline fails to connect: it stays `late`.
        if (s.closing) return false;
        s.state = { ...s.state, status: 'failed', lastError: messageOf(err) };
        void s.close();
        return false;
      },
    ),
  );
  await Promise.race([Promise.all(opened), deadline]);
  clearTimeout(timer);
  const notices: string[] = [];
  const ready: Server[] = [];
  for (const s of servers) {
    if (s.state.status === 'connected') ready.push(s);
    else if (s.state.status === 'failed')
      notices.push(`codey: MCP server ${s.spec.name} failed to start: ${s.state.lastError ?? 'no answer'}`);
    else {
      s.state = { ...s.state, status: 'late', lastError: `no answer within ${opts.timeoutMs} ms` };
      notices.push(
        `codey: MCP server ${s.spec.name} did not answer within ${opts.timeoutMs} ms (mcp_timeout_ms); its tools are not available this session`,
      );
      // Its tools could never join the list: it is ended now rather than left running.
      void s.close().then(() => {
        s.state = { ...s.state, status: 'late', tools: [], prompts: [] };
      });
    }
  }
  return {
    states: () => servers.map((s) => s.state),
    tools: ready,
    notices,
    async restart(name) {
      const s = servers.find((x) => x.spec.name === name);
      if (!s) return `no MCP server ${name}; /mcp lists them`;
      await s.close();
      s.closing = false;
      const listed = s.tools.map((t) => t.name);
      try {
        await withDeadline(s.open(), opts.timeoutMs);
      } catch (err) {
        s.state = { ...s.state, status: 'failed', lastError: messageOf(err) };
        await s.close();
        return `MCP server ${name} did not start again: ${s.state.lastError}`;
      }
      const gone = listed.length ? listed.filter((t) => !s.tools.some((x) => x.name === t)) : [];
      const inList = ready.includes(s);
      return [
        `MCP server ${name} is running again`,
        ...(inList ? [] : ['its tools join the list from the next session (the list is fixed for this one)']),
        ...(gone.length ? [`it no longer lists ${gone.join(', ')}`] : []),
      ].join('; ');
    },
    prompts: () => ready.flatMap((s) => s.prompts.map((prompt) => ({ server: s.spec.name, prompt }))),
    getPrompt: (server, name, args, signal) => {
      const s = ready.find((x) => x.spec.name === server);
      if (!s) return Promise.reject(new McpCallError(`no MCP server ${server}`));
      return s.prompt(name, args, signal);
    },
    async close() {
      await Promise.all(servers.map((s) => s.close()));
      process.removeListener('exit', killAll);
    },
  };
}
