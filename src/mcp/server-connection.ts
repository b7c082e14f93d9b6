/**
 * One MCP server's connection (client.ts opens the session's servers): its transport (a child
 * over stdio, or Streamable HTTP / HTTP+SSE with OAuth), its tools and prompts, calls, and closing.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { PipedChild, StartPiped } from '../util/exec-shapes';
import type {
  McpCallOptions,
  McpCallResult,
  McpPromptInfo,
  McpServerState,
  McpServerTools,
  McpToolInfo,
} from '../util/mcp-shapes';
import { childCommand } from './child-start';
import { ChildTransport } from './child-transport';
import { NeedsLoginError, StoredOAuth, TokenStore } from './oauth';
import type { McpServerSpec } from './servers';
import { oneLine } from '../util/text';

/** How long a call may go without a progress notification before it fails (ms). */
const CALL_TIMEOUT_MS = 10 * 60_000;
/** Characters of an error kept for `/mcp`. */
const ERROR_CHARS = 300;
/** `lastError` of a server that needs login. */
export const NEEDS_LOGIN = 'needs login';

/** How the servers of a session are opened. */
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
  /** The OAuth token file (codey's state folder); without it an HTTP server's 401 is a failed start. */
  tokenFile?: string;
  /** Stdio children already started (`startChild`), by server name: each is used by its first connection. */
  started?: Map<string, PipedChild>;
}

/** Why a call could not be made (the server is not running, the request failed), as a sentence. */
export class McpCallError extends Error {
  override name = 'McpCallError';
}

const short = (text: string) => oneLine(text, ERROR_CHARS);
export const messageOf = (err: unknown) => short(err instanceof Error ? err.message : String(err));
/** Whether `err` means only a person can let the connection go on (the SDK's 401 after no stored token worked). */
export const needsLogin = (err: unknown) =>
  err instanceof NeedsLoginError || err instanceof UnauthorizedError;

/** One server's connection and what is known about it. */
export class Server implements McpServerTools {
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

  /** The token store, for an HTTP server of a session that keeps tokens. */
  get store(): TokenStore | undefined {
    return this.spec.transport !== 'stdio' && this.opts.tokenFile
      ? new TokenStore(this.opts.tokenFile)
      : undefined;
  }

  /** An HTTP transport of `kind` for this server, authorizing with `authProvider` when given. */
  httpTransport(kind: 'http' | 'sse', authProvider?: StoredOAuth) {
    const spec = this.spec;
    if (spec.transport === 'stdio') throw new Error(`${spec.name} is not an HTTP server`);
    const url = new URL(spec.url);
    const requestInit = { headers: spec.headers };
    return kind === 'sse'
      ? new SSEClientTransport(url, {
          requestInit,
          ...(authProvider && { authProvider }),
          eventSourceInit: {
            fetch: (u, init) =>
              fetch(u, {
                ...init,
                headers: { ...(init?.headers as Record<string, string>), ...spec.headers },
              }),
          },
        })
      : new StreamableHTTPClientTransport(url, { requestInit, ...(authProvider && { authProvider }) });
  }

  private transportFor(kind: 'stdio' | 'http' | 'sse'): Transport {
    const spec = this.spec;
    if (spec.transport === 'stdio') {
      const started = this.opts.started?.get(spec.name);
      this.opts.started?.delete(spec.name);
      return new ChildTransport(
        childCommand(spec),
        this.opts.startPiped,
        { cwd: this.opts.cwd, env: this.opts.env },
        started,
      );
    }
    const store = this.store;
    return this.httpTransport(
      kind === 'sse' ? 'sse' : 'http',
      store && new StoredOAuth(store, spec.name, spec.url),
    );
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
      if (needsLogin(err)) throw new NeedsLoginError(this.spec.name);
      // A server that does not speak Streamable HTTP may still speak the older HTTP+SSE.
      if (this.spec.transport !== 'http' || this.closing) throw new Error(this.why(err));
      await this.client?.close().catch(() => {});
      try {
        await this.connectWith('sse');
      } catch (sseErr) {
        if (needsLogin(sseErr)) throw new NeedsLoginError(this.spec.name);
        throw new Error(this.why(err));
      }
    }
    const client = this.client as Client;
    const listTools = async () => {
      const tools: McpToolInfo[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor });
        for (const t of page.tools) tools.push(t as McpToolInfo);
        cursor = page.nextCursor;
      } while (cursor);
      return tools;
    };
    const listPrompts = async () =>
      client.getServerCapabilities()?.prompts
        ? client
            .listPrompts()
            .then((p) => p.prompts as McpPromptInfo[])
            .catch(() => [])
        : [];
    const [tools, prompts] = await Promise.all([listTools(), listPrompts()]);
    this.prompts = prompts;
    this.tools = tools;
    this.state = {
      ...this.state,
      status: 'connected',
      tools: tools.map((t) => t.name),
      prompts: prompts.map((p) => p.name),
    };
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
      if (needsLogin(err)) {
        this.state = { ...this.state, status: 'needs-login', lastError: NEEDS_LOGIN };
        throw new McpCallError(
          `server ${this.spec.name} needs login: the person can type /mcp login ${this.spec.name}`,
        );
      }
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
