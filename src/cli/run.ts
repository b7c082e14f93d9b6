import { realpathSync } from 'node:fs';
import { keyProblem } from '../config/key-shape';
import { ConfigError, FlagError, resolveSettings, type Settings } from '../config/resolve';
import { describeApiRoute } from '../llm/proxy';
import { flagValues } from './setting-flags';
import { ignoredHomeNotice } from '../config/paths';
import type { CliOptions, Resolved } from './cli-options';
import { EXIT } from './exit-codes';
import { expandPrintPrompt } from './command-prompt';
import { shownPath } from '../skills/places';
import { printSubscriber, redactingOut, resultObject, terminalSafeOut } from './print';
import { looksLikeSessionId } from '../session/store';
import { findFor, readForResume, resumeRequestOf, type Resumption } from './resume';
import { createSession } from './session';
import { imageFiles } from './image-files';
import { onStopSignals, signalExitCode, type StopSignal } from './signals';
import { onStdoutFailed } from './broken-pipe';
import { readPipedStdin } from './stdin';
import { broadWorkspace, broadWorkspaceNotice } from './workspace-check';
import { personWriter } from './person-out';
import { heldServers, heldServersNotice, trustedAlready, trustHint } from './project-trust';
import { mcpLines } from '../tui/commands/mcp-lines';
import { expandMcpPrompt } from './mcp-prompts';
import { onDemand } from './status-facts';
import { projectCommandRules } from './project-context';
import { releaseHeldKeys } from './held-keys';

export interface ModeInput {
  opts: CliOptions;
  positional?: string;
  setup: boolean;
  version: string;
}

// Everything before the session's own redacting output exists goes through the one sanitiser.
const stderr = personWriter((s) => process.stderr.write(s));
const rawStderr = (s: string) => void process.stderr.write(s);
const stdout = (s: string) => void process.stdout.write(s);

/**
 * Resolve settings from flags, env and files; a malformed file or a bad flag value is exit 2. A
 * project file the person trusts with its present settings (or `trustNow`) is applied in full; with
 * `trustNow` the notices are not printed again (the first resolve printed them).
 */
async function settingsFor(opts: CliOptions, trustNow = false): Promise<Resolved | number> {
  const flags = flagValues(opts);
  const cwd = process.cwd();
  const input = { flags, cwd, env: process.env, commandRules: await projectCommandRules(cwd, process.env) };
  try {
    let resolved = await resolveSettings({ ...input, trusted: trustNow });
    let projectTrusted = trustNow;
    if (resolved.held && (await trustedAlready(resolved.held, process.env))) {
      resolved = await resolveSettings({ ...input, trusted: true });
      projectTrusted = true;
    } else if (resolved.held && resolved.settings.mcp_trust && heldServers(resolved.held).length)
      // `--mcp-trust` (or `mcp_trust` in the person's file): the project's servers start, nothing else does.
      resolved = await resolveSettings({ ...input, trusted: trustNow, trustedKeys: ['mcp_servers'] });
    if (!trustNow) for (const n of resolved.notices) stderr(`${n}\n`);
    return { settings: resolved.settings, ...(resolved.held ? { held: resolved.held } : {}), projectTrusted };
  } catch (err) {
    if (err instanceof FlagError) {
      for (const p of err.problems) stderr(`codey: error: ${p}\n`);
      stderr('codey: see codey --help\n');
      return EXIT.usage;
    }
    if (err instanceof ConfigError) {
      stderr(`codey: ${err.message}\n`);
      return EXIT.usage;
    }
    throw err;
  }
}

/** Pick the mode (setup, one-shot, interactive) and run it; returns the exit code. */
export async function runMode(input: ModeInput): Promise<number> {
  const { opts } = input;
  const home = ignoredHomeNotice(process.env, process.cwd());
  if (home) stderr(`${home}\n`);
  const resolved = await settingsFor(opts);
  if (typeof resolved === 'number') return resolved;

  if (opts.image?.length && (input.setup || opts.print === undefined)) {
    stderr(
      'codey: --image goes with -p (codey -p "what is wrong here?" --image shot.png); in the session, type @shot.png or paste an image with Ctrl+V\n',
    );
    return EXIT.usage;
  }
  if (input.setup || opts.print === undefined) {
    const { runInteractive } = await import('./interactive');
    return runInteractive({
      ...resolved,
      opts,
      positional: input.positional,
      version: input.version,
      setup: input.setup,
      reload: (trustNow) => settingsFor(opts, trustNow),
    });
  }
  // The launcher guessed an interactive start: the terminal goes back to its own mode.
  releaseHeldKeys();
  const { settings, held, projectTrusted } = resolved;
  if (held) {
    for (const n of held.notices) stderr(`${n}\n`);
    const servers = heldServersNotice(held);
    if (servers) stderr(`${servers}\n`);
    stderr(`${trustHint(held)}\n`);
  }

  let prompt = typeof opts.print === 'string' ? opts.print : (input.positional ?? '');
  const piped = await readPipedStdin(process.stdin, 3000, (m) => stderr(`${m}\n`));
  if (piped.trim()) prompt = prompt ? `${prompt}\n\n${piped}` : piped;
  if (!prompt.trim()) {
    // `codey -p -r "fix the bug"`: -r took the prompt; say that rather than that none was given.
    if (typeof opts.resume === 'string' && !looksLikeSessionId(opts.resume)) {
      const misread = resumptionForPrint(opts, process.env);
      if (typeof misread === 'number') return misread;
    }
    stderr('codey: -p needs a prompt: codey -p "what to do" (or pipe text into it)\n');
    return EXIT.usage;
  }
  return runPrint(settings, opts, prompt, input.version, projectTrusted);
}

/** The API's address and how requests reach it, for `--verbose`. */
function apiLine(baseUrl: string | undefined, env: Record<string, string | undefined>): string {
  const url = baseUrl ?? 'https://api.anthropic.com';
  try {
    return `${url}, ${describeApiRoute(url, env)}`;
  } catch (err) {
    return `${url}, ${(err as Error).message}`;
  }
}

async function runPrint(
  settings: Settings,
  opts: CliOptions,
  prompt: string,
  version: string,
  projectTrusted: boolean,
): Promise<number> {
  const env = process.env;
  if (!settings.api_key && !env.ANTHROPIC_AUTH_TOKEN && !settings.base_url) {
    stderr(
      'codey: no API key. Set ANTHROPIC_API_KEY (or run `codey setup` in a terminal), or point --base-url at an endpoint that needs none.\n',
    );
    return EXIT.usage;
  }
  const badKey = [settings.api_key, env.ANTHROPIC_AUTH_TOKEN].map((k) => k && keyProblem(k)).find(Boolean);
  if (badKey) {
    stderr(
      `codey: ${badKey} (from ${settings.api_key ? 'the api_key setting or its variable' : 'ANTHROPIC_AUTH_TOKEN'})\n`,
    );
    return EXIT.usage;
  }
  const attached = await imageFiles(opts.image ?? [], process.cwd());
  if (!attached.ok) {
    stderr(`codey: ${attached.error}\n`);
    return EXIT.usage;
  }
  const broad = broadWorkspace(process.cwd(), env);
  if (broad) stderr(`${broadWorkspaceNotice(broad)}\n`);
  const resumption = resumptionForPrint(opts, env);
  if (typeof resumption === 'number') return resumption;
  const session = await createSession({
    settings,
    cwd: process.cwd(),
    env,
    version,
    noWeb: !opts.web,
    resumption,
    projectTrusted,
  });
  const out = terminalSafeOut(
    redactingOut({ stdout, stderr: rawStderr }, session.secrets),
    opts.outputFormat,
  );
  for (const n of session.notices) out.stderr(`${n}\n`);
  if (opts.verbose) {
    out.stderr(
      `codey ${version}: model ${settings.model} (${settings.sources.model}), workspace ${session.workspace}\n`,
    );
    out.stderr(`codey: API ${apiLine(settings.base_url, env)}\n`);
    out.stderr(
      `codey: tools: ${session.agent.registry
        .list()
        .map((t) => t.name)
        .join(', ')} (${session.webWhy})\n`,
    );
    for (const line of mcpLines(session.mcp?.states() ?? [], { prefix: 'codey: MCP server ' }))
      out.stderr(`${line}\n`);
    if (session.agent.spec.subagents)
      out.stderr(
        `codey: agent definitions: ${session.agents.length ? session.agents.map((a) => a.name).join(', ') : 'none'}\n`,
      );
    const rules = session.policy.rules();
    if (rules.length) out.stderr(`codey: allow rules: ${rules.join(', ')}\n`);
    out.stderr(`codey: permission mode ${session.policy.mode} (${settings.sources.permission_mode})\n`);
    const narrowing = session.policy.narrowing();
    if (narrowing.deny.length) out.stderr(`codey: deny rules: ${narrowing.deny.join(', ')}\n`);
    if (narrowing.ask.length) out.stderr(`codey: ask rules: ${narrowing.ask.join(', ')}\n`);
    const skillsOff = settings.sources.skills === 'flag' ? 'off (--no-skills)' : 'off (skills: false)';
    const skills = session.skills.map((k) => k.name).join(', ');
    out.stderr(`codey: skills: ${skills || (settings.skills ? 'none found' : skillsOff)}\n`);
    out.stderr(`codey: project instructions: ${session.instructionFiles.join(', ') || 'none found'}\n`);
    if (session.instructionsSkipped.length)
      out.stderr(`codey: instructions not read: ${session.instructionsSkipped.join(', ')}\n`);
    out.stderr(`codey: instructions loaded when a file they cover is read: ${onDemand(session)}\n`);
    const shown = (c: (typeof session.commands)[number]) =>
      `/${c.name}${c.aliases?.length ? ` (also /${c.aliases.join(', /')})` : ''} ${c.skill ? 'skill' : c.scope}: ${shownPath(c.path, session.workspace, env)}`;
    out.stderr(`codey: commands: ${session.commands.map(shown).join(', ') || 'none found'}\n`);
    out.stderr(`codey: hooks: ${session.hooks?.describe() ?? 'none'}\n`);
    if (session.log) out.stderr(`codey: session log ${session.log.path}\n`);
    out.stderr(`codey: session ${session.id}, stored in ${session.recorder.path}\n`);
  }
  session.events.on(printSubscriber(opts.outputFormat, out, opts.verbose));
  session.log?.onFailure((m) => out.stderr(`codey: ${m}\n`));
  session.recorder.onFailure((m) => out.stderr(`codey: ${m}\n`));

  // Ctrl-C, SIGTERM and SIGHUP (the terminal closed) stop the turn: the loop kills the running tools,
  // the log gets its end and the result is printed; a second signal quits at once.
  const controller = new AbortController();
  let stoppedBy: StopSignal | undefined;
  const offSignals = onStopSignals((signal) => {
    if (stoppedBy) process.exit(signalExitCode(signal));
    stoppedBy = signal;
    out.stderr(
      signal === 'SIGINT'
        ? '\ncodey: interrupting (Ctrl-C again to quit at once)\n'
        : `\ncodey: ${signal} received; stopping the turn\n`,
    );
    controller.abort(new Error('interrupted'));
  });
  // The answer has nowhere to go (`| head -1`, a full disk): stop the turn; main says why, or exits
  // 141 quietly when the reader went away.
  let outputFailed = false;
  const offStdout = onStdoutFailed(process.stdout, () => {
    outputFailed = true;
    controller.abort(new Error('interrupted'));
  });
  try {
    const startedAt = Date.now();
    // `-p "/NAME args"` runs a custom command (or an MCP prompt) as the interactive session would.
    let sent: string;
    try {
      sent =
        (await expandMcpPrompt(prompt, session.mcp, controller.signal)) ??
        (await expandPrintPrompt(prompt, session, controller.signal));
    } catch (err) {
      out.stderr(`codey: ${(err as Error).message}\n`);
      return EXIT.usage;
    }
    const images = attached.images;
    session.log?.write({ type: 'user_prompt', text: sent, ...(images.length && { images: images.length }) });
    const result = await session.run(sent, controller.signal, { images });
    const obj = resultObject(result, {
      sessionId: session.id,
      model: settings.model,
      usage: session.agent.spec.totals.usage,
      denials: session.agent.spec.totals.denials,
      permissionMode: session.policy.mode,
      sandbox: session.sandbox.on ? 'on' : 'off',
      startedAt,
      ...(session.mcp && {
        mcpServers: session.mcp.states().map((m) => ({ name: m.name, status: m.status })),
      }),
    });
    session.log?.write({ ...obj, type: 'session_result' });
    for (const n of await session.end('other')) out.stderr(`codey: ${n}\n`);
    await session.log?.close();
    if (opts.outputFormat === 'json' || opts.outputFormat === 'stream-json') {
      out.stdout(`${JSON.stringify(obj)}\n`);
    } else if (result.text) {
      out.stdout(result.text.endsWith('\n') ? result.text : `${result.text}\n`);
    }
    if (stoppedBy) return signalExitCode(stoppedBy);
    if (outputFailed) return EXIT.failed;
    if (result.reason === 'interrupted') return EXIT.interrupted;
    return obj.is_error ? EXIT.failed : EXIT.ok;
  } finally {
    offSignals();
    offStdout();
    await session.mcp?.close();
  }
}

/**
 * The stored session `-p -c` / `-p -r ID` goes on with, or the exit code after saying why there is
 * none: no session, an ID that names none, or a session of another workspace (refused: without a
 * person to ask, codey does not move a conversation to files it was not about).
 */
function resumptionForPrint(
  opts: CliOptions,
  env: Record<string, string | undefined>,
): Resumption | undefined | number {
  const request = resumeRequestOf(opts);
  if (!request) return undefined;
  const found = findFor(request, realpathSync(process.cwd()), env, 'codey -p');
  if (!found.ok) {
    stderr(`codey: ${found.message}\n`);
    return EXIT.usage;
  }
  try {
    return readForResume(found.summary, env);
  } catch (err) {
    stderr(`codey: cannot resume: ${(err as Error).message}\n`);
    return EXIT.failed;
  }
}
