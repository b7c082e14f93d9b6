import { existsSync } from 'node:fs';
import { keyProblem } from '../config/key-shape';
import { join } from 'node:path';
import { stateDir } from '../config/paths';
import { DEFAULT_MODEL } from '../config/schema';
import { forTerminal } from '../util/terminal-text';
import type { CliOptions, Resolved } from './cli-options';
import { EXIT } from './exit-codes';
import { askYesNo } from './ask';
import { resumptionForTui } from './resume-interactive';
import { createSession } from './session';
import { mcpLines } from '../tui/commands/mcp-lines';
import { onStopSignals, signalExitCode, type StopSignal } from './signals';
import { broadWorkspace, broadWorkspaceNotice } from './workspace-check';
import { personWriter } from './person-out';
import { askTrust, notTrusted } from './project-trust';
import { onDemand } from './status-facts';
import { heldKeys, withKeysHandedOver } from './held-keys';

const stderr = personWriter((s) => process.stderr.write(s));

/** Ask on the terminal whether to go on in a broad workspace; only `y` or `yes` goes on (Ctrl-C, Ctrl-D: no). */
function confirmBroadWorkspace(why: string): Promise<boolean> {
  return askYesNo(`${forTerminal(broadWorkspaceNotice(why))}\nStart here anyway? [y/N] `);
}

export interface InteractiveInput extends Resolved {
  opts: CliOptions;
  positional?: string;
  version: string;
  setup: boolean;
  /**
   * Resolve the settings again (after the setup wizard wrote the user file); `trustNow` applies the
   * project file in full (the person just said they trust it).
   */
  reload: (trustNow?: boolean) => Promise<Resolved | number>;
}

/**
 * What codey says when the interactive session or `codey setup` has no terminal on both ends: the
 * one-shot form, and, for setup or a first run (no `userFile` yet), how to configure without the
 * wizard: the key in the environment, the other settings in `userFile`, with a minimal example.
 */
function noTerminalText(setup: boolean, userFileExists: boolean, userFile: string): string {
  const what = setup ? '`codey setup`' : 'the interactive session';
  if (!setup && userFileExists)
    return `codey: ${what} needs a terminal; for one-shot use: codey -p "what to do"\n`;
  const example = JSON.stringify({ model: DEFAULT_MODEL });
  return (
    `codey: ${what} needs a terminal. Without one, configure by environment and file: export ` +
    `ANTHROPIC_API_KEY=sk-ant-…, and put other settings in ${userFile} (mode 0600), e.g. ${example}\n` +
    'codey: then run: codey -p "what to do" (README "Configuration" lists every setting)\n'
  );
}

/**
 * The interactive session: the setup wizard on the first run (no user config file) or for
 * `codey setup`, then the Ink app. Needs a terminal on both ends; never runs under `-p`.
 */
export async function runInteractive(input: InteractiveInput): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    stderr(noTerminalText(input.setup, existsSync(input.settings.files.user), input.settings.files.user));
    return EXIT.usage;
  }
  // Keys typed from here on (or from the launcher's start) wait for the input box.
  const keys = heldKeys();
  keys.hold();
  let { settings, held, projectTrusted } = input;
  const env = process.env;
  if (input.setup || !existsSync(settings.files.user)) {
    const { runSetup } = await import('./setup');
    const outcome = await withKeysHandedOver(() => runSetup(settings, env));
    if (input.setup) return outcome;
    const again = await input.reload();
    if (typeof again === 'number') return again;
    ({ settings, held, projectTrusted } = again);
  }
  if (!settings.api_key && !env.ANTHROPIC_AUTH_TOKEN && !settings.base_url) {
    stderr('codey: no API key. Set ANTHROPIC_API_KEY, or run `codey setup`.\n');
    return EXIT.usage;
  }
  const badKey = [settings.api_key, env.ANTHROPIC_AUTH_TOKEN].map((k) => k && keyProblem(k)).find(Boolean);
  if (badKey) {
    stderr(
      `codey: ${badKey} (from ${settings.api_key ? 'the api_key setting or its variable' : 'ANTHROPIC_AUTH_TOKEN'})\n`,
    );
    return EXIT.usage;
  }

  const broad = broadWorkspace(process.cwd(), env);
  if (broad && !(await confirmBroadWorkspace(broad))) {
    stderr('codey: not started; cd into a project folder and run codey there\n');
    return EXIT.ok;
  }
  if (held) {
    const answer = await askTrust(held, env, (line) => stderr(`${line}\n`));
    if (answer === 'quit') {
      stderr('\n');
      return signalExitCode('SIGINT');
    }
    if (answer === 'yes') {
      const trusted = await input.reload(true);
      if (typeof trusted === 'number') return trusted;
      ({ settings, projectTrusted } = trusted);
    } else {
      stderr(`${notTrusted(held)}\n`);
    }
  }

  const resumption = await resumptionForTui(input.opts, env);
  if (typeof resumption === 'number') return resumption;
  const session = await createSession({
    settings,
    cwd: process.cwd(),
    env,
    version: input.version,
    noWeb: !input.opts.web,
    resumption,
    projectTrusted,
  });
  const [{ SessionController }, { runTui }] = await Promise.all([
    import('./controller'),
    import('../tui/app/run'),
  ]);
  const notices = [...session.notices];
  if (input.opts.verbose) {
    notices.push(
      `codey: skills: ${session.skills.map((k) => k.name).join(', ') || 'none'}`,
      `codey: project instructions: ${session.instructionFiles.join(', ') || 'none found'}`,
      `codey: instructions loaded when a file they cover is read: ${onDemand(session)}`,
      `codey: hooks: ${session.hooks?.describe() ?? 'none'}`,
      ...mcpLines(session.mcp?.states() ?? [], { prefix: 'codey: MCP server ' }),
    );
  }
  const controller = new SessionController(
    session,
    settings,
    join(stateDir(env), 'history.jsonl'),
    notices,
    env,
  );
  // SIGTERM and SIGHUP (the terminal closed) end the session as /exit does, after stopping the turn
  // so its tools die; SIGINT too (in the app Ctrl-C is a key, so SIGINT comes only from kill). A
  // second signal quits at once.
  const quit = new AbortController();
  let stoppedBy: StopSignal | undefined;
  const offSignals = onStopSignals((signal) => {
    if (stoppedBy) process.exit(signalExitCode(signal));
    stoppedBy = signal;
    void settled(controller.stop(), STOP_GRACE_MS).then(() => quit.abort());
  });
  try {
    // What was typed while codey loaded goes to the input box; its echo (typed before raw mode) is
    // cleared from the line the first frame starts on.
    keys.handOver();
    if (keys.echoed) process.stdout.write('\r\u001b[K');
    const code = await runTui(controller, { initialPrompt: input.positional, signal: quit.signal });
    const exitCode = stoppedBy ? signalExitCode(stoppedBy) : code;
    for (const n of await session.end(stoppedBy ? 'other' : 'prompt_input_exit')) stderr(`codey: ${n}\n`);
    session.log?.write({
      type: 'session_end',
      exit_code: exitCode,
      ...(stoppedBy ? { signal: stoppedBy } : {}),
    });
    await session.log?.close();
    return exitCode;
  } finally {
    offSignals();
    await session.mcp?.close();
  }
}

/** How long (ms) a stop signal waits for the running turn to settle before the app closes anyway. */
const STOP_GRACE_MS = 2000;

/** Resolves when `p` settles or after `ms`, whichever comes first. */
function settled(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([p.catch(() => {}), grace]).then(() => clearTimeout(timer));
}
