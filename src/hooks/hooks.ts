/**
 * The session's hooks (README, "Hooks"): the `hooks` setting read once into entries, and `fire`,
 * which runs every hook of an event whose matcher fits, side by side, and gathers what they said.
 * One object per session, passed in (subagents share their parent's).
 */
import { HOOK_EVENTS, type HookEvent, type HooksSetting } from '../util/shapes';
import { oneLine } from '../util/text';
import { MATCHED_ON } from './events';
import { matcherOf, type Matcher } from './matcher';
import { DEFAULT_HOOK_TIMEOUT_S, runHook, type HookOutcome, type HookPlace } from './run-hook';

/** One hook command of one event. */
interface HookEntry {
  event: HookEvent;
  matches: Matcher;
  command: string;
  /** Seconds. */
  timeoutS: number;
}

/** The session a payload names; read at each firing (`/clear` and `/resume` change it). */
export interface HookSession {
  id: string;
  /** The stored conversation (JSON lines), when there is one. */
  transcriptPath?: string;
  /** The permission mode in force, by Claude Code's name (`default`, `acceptEdits`, `plan`, `bypassPermissions`). */
  permissionMode?: string;
}

export interface HooksInput {
  setting: HooksSetting;
  place: HookPlace;
  session: () => HookSession;
  /** The one redactor: codey's secrets replaced in every payload before a hook sees it. */
  scrub: (text: string) => string;
}

/** What the hooks of one firing said, gathered. */
export interface Fired {
  /** Each refusal's reason: an exit 2's stderr, or a JSON `decision: "block"` / `"deny"` reason. */
  blocks: string[];
  /** Reasons of hooks that answered `permissionDecision: "ask"`. */
  asks: string[];
  /** Reasons of hooks that answered `permissionDecision: "allow"` (or `decision: "approve"`). */
  allows: string[];
  /** Text for the model: `additionalContext`, and plain stdout of UserPromptSubmit and SessionStart hooks. */
  context: string[];
  /** `continue: false`: why the work should stop. */
  stop?: string;
  /** The first `updatedInput` a hook answered (in the order the hooks are set). */
  updatedInput?: Record<string, unknown>;
  /**
   * Lines for the person (as notice events: no `codey:` in front): a hook that failed or timed out,
   * a `systemMessage`, the stderr of an exit 2 that blocks nothing.
   */
  notices: string[];
}

/** Events whose hooks may refuse (exit 2 or a block decision); for the others an exit 2 is only said to the person. */
const MAY_BLOCK: ReadonlySet<HookEvent> = new Set([
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
]);
/** Events whose hooks' plain stdout (exit 0, not JSON) is context for the model. */
const STDOUT_IS_CONTEXT: ReadonlySet<HookEvent> = new Set(['UserPromptSubmit', 'SessionStart']);

const isEvent = (name: string): name is HookEvent => (HOOK_EVENTS as readonly string[]).includes(name);
const shown = (command: string) => `\`${oneLine(command, 80)}\``;
const firstLines = (text: string) => oneLine(text, 300);

export class Hooks {
  /** One line for each part of the setting that is not used (an unknown event, a type codey does not run). */
  readonly notices: string[] = [];
  readonly #entries: HookEntry[] = [];
  readonly #place: HookPlace;
  readonly #session: () => HookSession;
  readonly #scrub: (text: string) => string;
  /** What SessionStart hooks said for the model, until the next prompt takes it. */
  #startContext: string[] = [];

  constructor(input: HooksInput) {
    this.#place = input.place;
    this.#session = input.session;
    this.#scrub = input.scrub;
    for (const [event, groups] of Object.entries(input.setting)) {
      if (!isEvent(event)) {
        this.notices.push(
          `codey: hooks: ${JSON.stringify(oneLine(event, 40))} is not an event codey knows (${HOOK_EVENTS.join(', ')}); its hooks do not run`,
        );
        continue;
      }
      for (const group of groups) {
        const matches = matcherOf(group.matcher);
        if ('problem' in matches) {
          this.notices.push(`codey: hooks: ${event}: ${matches.problem}; its hooks do not run`);
          continue;
        }
        for (const hook of group.hooks) {
          if (hook.type !== 'command') {
            this.notices.push(
              `codey: hooks: ${event}: a hook of type ${JSON.stringify(oneLine(hook.type, 20))} does not run (codey runs type "command")`,
            );
          } else if (!hook.command?.trim()) {
            this.notices.push(`codey: hooks: ${event}: a hook without a command does not run`);
          } else {
            this.#entries.push({
              event,
              matches,
              command: hook.command,
              timeoutS: hook.timeout ?? DEFAULT_HOOK_TIMEOUT_S,
            });
          }
        }
      }
    }
  }

  /** Keep what SessionStart hooks said for the model, for the next prompt ({@link takeStartContext}). */
  keepStartContext(context: readonly string[]): void {
    this.#startContext.push(...context);
  }

  /** What SessionStart hooks said since the last prompt (then forgotten). */
  takeStartContext(): string[] {
    return this.#startContext.splice(0);
  }

  /** For `--verbose`: the events with hooks and how many commands each runs (`PreToolUse ×2, Stop ×1`), or `none`. */
  describe(): string {
    const counts = new Map<HookEvent, number>();
    for (const e of this.#entries) counts.set(e.event, (counts.get(e.event) ?? 0) + 1);
    return [...counts].map(([event, n]) => `${event} ×${n}`).join(', ') || 'none';
  }

  /** Whether any hook is set for `event`. */
  has(event: HookEvent): boolean {
    return this.#entries.some((e) => e.event === event);
  }

  /**
   * Run the hooks of `event` whose matcher fits `on` (the names matched, see `MATCHED_ON`; ignored
   * for events without a matcher), each command once, side by side, each given the payload
   * `{ session_id, transcript_path, cwd, permission_mode, hook_event_name, ...fields }` as JSON on
   * stdin (`transcript_path` only when the session has a file). `cwd`:
   * where the agent works (default the session's workspace). Never throws.
   */
  async fire(
    event: HookEvent,
    fields: Record<string, unknown>,
    opts: { on?: readonly string[]; cwd?: string; signal?: AbortSignal } = {},
  ): Promise<Fired> {
    const fired: Fired = { blocks: [], asks: [], allows: [], context: [], notices: [] };
    const matched = MATCHED_ON[event] !== 'none';
    const commands = [
      ...new Map(
        this.#entries
          .filter((e) => e.event === event && (!matched || e.matches(opts.on ?? [])))
          .map((e) => [e.command, e]),
      ).values(),
    ];
    if (commands.length === 0) return fired;
    const session = this.#session();
    const cwd = opts.cwd ?? this.#place.cwd;
    const payload = this.#scrub(
      JSON.stringify({
        session_id: session.id,
        ...(session.transcriptPath && { transcript_path: session.transcriptPath }),
        cwd,
        permission_mode: session.permissionMode ?? 'default',
        hook_event_name: event,
        ...fields,
      }),
    );
    const place = { ...this.#place, cwd };
    const outcomes = await Promise.all(
      commands.map((e) => runHook(e.command, payload, place, e.timeoutS, opts.signal)),
    );
    outcomes.forEach((o, i) => gather(fired, event, commands[i], o));
    return fired;
  }
}

/** Add what one hook said to `fired`. */
function gather(fired: Fired, event: HookEvent, entry: HookEntry, o: HookOutcome): void {
  const who = `hook ${shown(entry.command)} (${event})`;
  switch (o.status) {
    case 'interrupted':
      return;
    case 'timed_out':
      fired.notices.push(`${who} did not finish within ${entry.timeoutS} s and was stopped`);
      return;
    case 'failed': {
      const why = o.spawnError ?? (o.exitCode === null ? 'was killed' : `exited ${o.exitCode}`);
      const said = o.stderr.trim() ? `: ${firstLines(o.stderr)}` : '';
      fired.notices.push(`${who} ${why}${said}`);
      return;
    }
    case 'blocked': {
      const reason = o.stderr.trim() || `a ${event} hook (${shown(entry.command)}) exited 2`;
      if (MAY_BLOCK.has(event)) fired.blocks.push(reason);
      else fired.notices.push(`${who} exited 2: ${firstLines(reason)}`);
      return;
    }
    case 'ok':
      break;
  }
  const reply = o.reply;
  if (!reply) {
    if (STDOUT_IS_CONTEXT.has(event) && o.stdout.trim()) fired.context.push(o.stdout.trim());
    return;
  }
  if (reply.systemMessage) fired.notices.push(`${who}: ${firstLines(reply.systemMessage)}`);
  if (reply.stop !== undefined) fired.stop ??= reply.stop;
  if (reply.additionalContext) fired.context.push(reply.additionalContext);
  if (reply.updatedInput) fired.updatedInput ??= reply.updatedInput;
  const reason = reply.reason ?? `a ${event} hook (${shown(entry.command)}) refused`;
  if (reply.decision === 'block') {
    if (MAY_BLOCK.has(event)) fired.blocks.push(reason);
    else fired.notices.push(`${who} answered "block": ${firstLines(reason)}`);
  } else if (reply.decision === 'ask') fired.asks.push(reason);
  else if (reply.decision === 'allow')
    fired.allows.push(reply.reason ?? `a ${event} hook (${shown(entry.command)}) allowed it`);
}
