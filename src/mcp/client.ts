/**
 * MCP client connections (DESIGN.md "Seams: MCP"): the servers of a session opened in parallel
 * once at start, their tools listed, called, and closed at exit. Loaded only when a server is
 * configured, so a start without MCP never loads the SDK.
 */
import type { McpPromptInfo, McpServerState, McpServerTools } from '../util/mcp-shapes';
import { loginTo, type McpLogin } from './oauth-login';
import type { McpServerSpec } from './servers';
import {
  McpCallError,
  messageOf,
  NEEDS_LOGIN,
  needsLogin,
  Server,
  type OpenOptions,
} from './server-connection';

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
  /**
   * Log in to the HTTP server `name` (OAuth, authorization code with PKCE): either done at once
   * (`message`), or the person must visit `url`, and `done` says how it went once the browser came
   * back (or the wait ended). A server logged in is started again. Never rejects.
   */
  login(name: string): Promise<McpLogin>;
  /** Forget the OAuth tokens of `name` and stop it; a sentence saying what was done. Never rejects. */
  logout(name: string): Promise<string>;
  /** Close every server (stdio children: their whole process group). Never rejects. */
  close(): Promise<void>;
}

export type { McpLogin };

export type { OpenOptions };

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
        s.state = needsLogin(err)
          ? { ...s.state, status: 'needs-login', lastError: NEEDS_LOGIN }
          : { ...s.state, status: 'failed', lastError: messageOf(err) };
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
    else if (s.state.status === 'needs-login')
      notices.push(
        `codey: MCP server ${s.spec.name} needs login: type /mcp login ${s.spec.name} in codey; its tools are not available this session`,
      );
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
  // The login each server waits for, so a second one (or logout, or the end) stops the first.
  const logins = new Map<string, () => void>();
  const conns: McpConnections = {
    states: () => servers.map((s) => s.state),
    tools: ready,
    notices,
    async login(name) {
      const s = servers.find((x) => x.spec.name === name);
      const store = s?.store;
      if (!s || s.spec.transport === 'stdio' || !store)
        return {
          message: s
            ? `MCP server ${name} runs on this machine: it has no login`
            : `no MCP server ${name}; /mcp lists them`,
        };
      logins.get(name)?.();
      const kind = s.spec.transport;
      const login = await loginTo({
        server: name,
        url: s.spec.url,
        store,
        version: opts.version,
        transport: (provider) => s.httpTransport(kind, provider),
        restart: () => conns.restart(name),
      });
      if (login.url === undefined) return login;
      logins.set(name, login.cancel);
      void login.done.finally(() => {
        if (logins.get(name) === login.cancel) logins.delete(name);
      });
      return login;
    },
    async logout(name) {
      const s = servers.find((x) => x.spec.name === name);
      const store = s?.store;
      if (!s || !store)
        return s
          ? `MCP server ${name} runs on this machine: it has no login`
          : `no MCP server ${name}; /mcp lists them`;
      logins.get(name)?.();
      let had: boolean;
      try {
        had = await store.remove(name);
      } catch (err) {
        return `could not forget the login of ${name}: ${messageOf(err)}`;
      }
      if (!had) return `codey holds no login for MCP server ${name}`;
      await s.close();
      s.closing = false;
      s.state = { ...s.state, status: 'needs-login', lastError: 'logged out' };
      return `logged out of MCP server ${name}: its tokens are removed from ${store.file}; /mcp login ${name} logs in again`;
    },
    async restart(name) {
      const s = servers.find((x) => x.spec.name === name);
      if (!s) return `no MCP server ${name}; /mcp lists them`;
      await s.close();
      s.closing = false;
      const listed = s.tools.map((t) => t.name);
      try {
        await withDeadline(s.open(), opts.timeoutMs);
      } catch (err) {
        await s.close();
        if (needsLogin(err)) {
          s.state = { ...s.state, status: 'needs-login', lastError: NEEDS_LOGIN };
          return `MCP server ${name} needs login: /mcp login ${name}`;
        }
        s.state = { ...s.state, status: 'failed', lastError: messageOf(err) };
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
      for (const cancel of logins.values()) cancel();
      await Promise.all(servers.map((s) => s.close()));
      process.removeListener('exit', killAll);
    },
  };
  return conns;
}
