import type { PermissionDenial } from '../agent/dispatch';
import { redactor } from '../util/redact';
import { escapeJsonControls, forTerminal } from '../util/terminal-text';
import { hiddenWarning, showHidden } from '../util/hidden-chars';
import { displayName, oneLine } from '../util/text';
import { NO_ANSWER, compactionLine, retryingIn } from '../tui/transcript/endings';
import type { PermissionMode } from '../util/shapes';
import type { AgentEvent, RefusalDetails, TurnEndReason, Usage } from '../agent/events';
import type { TurnResult } from '../agent/loop';
import { wireEvent } from '../session/wire-event';

export type OutputFormat = 'text' | 'json' | 'stream-json';

export interface Out {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

/** A writer that replaces every secret with `[redacted]` before anything leaves the process. */
export function redactingOut(out: Out, secrets: string[]): Out {
  const r = redactor(secrets);
  return { stdout: (s) => out.stdout(r(s)), stderr: (s) => out.stderr(r(s)) };
}

/**
 * A writer that makes what `-p` prints safe to show on a terminal (`forTerminal`, src/util): stderr
 * is for a person in every format, and so is stdout in `text`; in `json` and `stream-json` stdout is
 * JSON for a program, whose string values stay exactly what the model and the tools produced, with
 * DEL and C1 written as `\u` escapes (JSON.stringify already escapes the rest). Wrap it around
 * {@link redactingOut}, so that a secret split by a control sequence is whole when redacted.
 */
export function terminalSafeOut(out: Out, format: OutputFormat): Out {
  return {
    stdout: (s) => out.stdout(format === 'text' ? forTerminal(s) : escapeJsonControls(s)),
    stderr: (s) => out.stderr(forTerminal(s)),
  };
}

/** The turn ended normally, but its last assistant message holds no text (empty, or thinking only). */
function isNoAnswer(reason: TurnEndReason, text: string): boolean {
  return reason === 'end_turn' && text.trim() === '';
}

/** `codey: the model declined to answer (stop_reason: refusal, category cyber): <explanation>` */
function refusalLine(d: RefusalDetails | undefined): string {
  const category = d?.category ? `, category ${d.category}` : '';
  const explanation = d?.explanation ? `: ${shown(d.explanation, 500)}` : '';
  return `codey: the model declined to answer (stop_reason: refusal${category})${explanation}\n`;
}

/** `s` on one line of at most `max` visible characters, safe for a terminal. */
const shown = (s: string, max?: number): string => oneLine(forTerminal(s), max);

/**
 * A call's words on one line, each character that draws nothing or reorders text written as its
 * `\u` escape, as the interactive session shows them.
 */
const shownCall = (s: string): string => oneLine(showHidden(s).text);

/**
 * The `-p` subscriber of the agent's events (STYLE.md rule 13).
 * - `text`: one line per tool call on stderr (`● Bash(npm test) exit 0`), a subagent's indented
 *   under its call; the answer at the end.
 * - `stream-json`: one JSON line per event on stdout (a subagent's with `agent_id` and
 *   `parent_tool_use_id`), then the result object.
 * - `json`: nothing while running; one result object at the end.
 */
export function printSubscriber(format: OutputFormat, out: Out, verbose: boolean): (e: AgentEvent) => void {
  const details = new Map<string, string>();
  /** Calls refused because no one could be asked: their line says how to let them run. */
  const unasked = new Set<string>();
  return (e) => {
    if (format === 'stream-json') {
      out.stdout(`${JSON.stringify(wireEvent(e))}\n`);
      return;
    }
    if (format !== 'text') return;
    // A subagent's tool lines are indented under its spawn_agent call; its end is the call's line.
    const indent = e.agentId ? '  ' : '';
    if (e.agentId && e.type === 'turn_end') return;
    switch (e.type) {
      case 'tool_start':
        details.set(e.id, e.detail || e.summary);
        break;
      case 'tool_end': {
        const what =
          e.status === 'done'
            ? e.title
              ? shownCall(e.title)
              : 'done'
            : e.status === 'error'
              ? `error: ${shown(e.output, 80)}`
              : e.status === 'denied' && unasked.has(e.id)
                ? `denied: it needs your approval and no one could be asked; to let such calls run, rerun with --allow "${e.displayName}" (or a narrower rule, see README "Approval")`
                : e.status;
        const detail = details.get(e.id) ?? '';
        out.stderr(`${indent}● ${e.displayName}(${shownCall(detail)}) ${what}\n`);
        const hidden = showHidden(detail).hidden;
        if (hidden > 0) out.stderr(`${indent}  ${hiddenWarning(hidden)}\n`);
        details.delete(e.id);
        unasked.delete(e.id);
        break;
      }
      case 'server_tool_use': {
        const input = e.input as { query?: string; url?: string } | undefined;
        out.stderr(
          `● ${displayName(e.name)}(${shown(input?.query ?? input?.url ?? JSON.stringify(e.input))}) hosted\n`,
        );
        break;
      }
      case 'server_tool_result':
        if (e.error) out.stderr(`  ${e.name}: ${e.error}\n`);
        else if (verbose) for (const r of e.results) out.stderr(`  ${shown(r.title, 60)} ${r.url}\n`);
        break;
      case 'retry':
        out.stderr(`codey: ${e.reason}; ${retryingIn(e.delayMs, e.attempt, e.attempts)}\n`);
        break;
      case 'notice':
        // What only tells what codey did ("instructions loaded: …") is for --verbose.
        if (e.level === 'warn' || verbose) out.stderr(`codey: ${e.message}\n`);
        break;
      case 'error':
        out.stderr(`codey: ${e.message}\n`);
        break;
      case 'compaction':
        out.stderr(`codey: ${compactionLine(e)}\n`);
        break;
      case 'turn_end':
        if (e.reason === 'refusal') out.stderr(refusalLine(e.refusal));
        else if (isNoAnswer(e.reason, e.text)) out.stderr(`codey: no answer: ${NO_ANSWER}\n`);
        break;
      case 'approval_decision':
        if (e.source === 'no_one_to_ask') unasked.add(e.id);
        if (verbose) {
          const line = decisionLine(e);
          if (line) out.stderr(`codey: ${shownCall(line)}\n`);
        }
        break;
      default:
        break;
    }
  };
}

/**
 * A decision as `--verbose` says it: what it was and who or which rule made it ("denied by rule
 * Bash(curl *)", "allowed by rule Bash(git status:*)", "remembered bash(npm test)");
 * undefined for an answer with nothing to add to the call's own line.
 */
function decisionLine(e: Extract<AgentEvent, { type: 'approval_decision' }>): string | undefined {
  const denied = e.decision.kind === 'deny' || e.decision.kind === 'deny_with_message';
  if (e.source === 'rule') return `${denied ? 'denied' : 'allowed'} by rule ${e.rule ?? '(unnamed)'}`;
  if (e.source === 'mode') return `${denied ? 'denied' : 'allowed'} by ${e.mode ?? 'the permission'} mode`;
  if (e.source === 'person' && e.rule) return `remembered ${e.rule}`;
  return undefined;
}

/** The result object of `json` and the last line of `stream-json` (field names as Claude Code's). */
export interface PrintResult {
  type: 'result';
  subtype:
    | 'success'
    | 'error_max_turns'
    | 'error_during_execution'
    | 'error_max_tokens'
    | 'error_refusal'
    /** The turn ended without any text: nothing to print. */
    | 'error_no_answer'
    | 'interrupted';
  is_error: boolean;
  result: string;
  session_id: string;
  /** Model requests made. */
  num_turns: number;
  stop_reason: string | null;
  duration_ms: number;
  model: string;
  usage: Usage;
  permission_denials: PermissionDenial[];
  /** The permission mode the turn ended in (`default`, `accept-edits`, `plan`, `bypass`). */
  permission_mode: PermissionMode;
  /** Whether bash ran in the sandbox (`sandbox: on`). */
  sandbox: 'on' | 'off';
  /** The MCP servers configured, each with how it stands (`connected`, `failed`, `late`, `stopped`); absent when none. */
  mcp_servers?: { name: string; status: string }[];
  error?: string;
  /** A refusal's `stop_details` as the API sent them (category and explanation may be null). */
  stop_details?: { type: 'refusal' } & RefusalDetails;
}

export function resultObject(
  r: TurnResult,
  x: {
    sessionId: string;
    model: string;
    usage: Usage;
    denials: PermissionDenial[];
    permissionMode: PermissionMode;
    sandbox?: 'on' | 'off';
    startedAt: number;
    mcpServers?: { name: string; status: string }[];
  },
): PrintResult {
  const subtype: PrintResult['subtype'] =
    r.reason === 'end_turn'
      ? isNoAnswer(r.reason, r.text)
        ? 'error_no_answer'
        : 'success'
      : r.reason === 'max_turns'
        ? 'error_max_turns'
        : r.reason === 'max_tokens'
          ? 'error_max_tokens'
          : r.reason === 'refusal'
            ? 'error_refusal'
            : r.reason === 'interrupted'
              ? 'interrupted'
              : 'error_during_execution';
  return {
    type: 'result',
    subtype,
    is_error: subtype !== 'success',
    result: r.text,
    session_id: x.sessionId,
    num_turns: r.requests,
    stop_reason: r.stopReason,
    duration_ms: Date.now() - x.startedAt,
    model: x.model,
    usage: x.usage,
    permission_denials: x.denials,
    permission_mode: x.permissionMode,
    sandbox: x.sandbox ?? 'off',
    ...(x.mcpServers && { mcp_servers: x.mcpServers }),
    ...(r.error ? { error: r.error } : subtype === 'error_no_answer' ? { error: NO_ANSWER } : {}),
    ...(r.refusal ? { stop_details: { type: 'refusal' as const, ...r.refusal } } : {}),
  };
}
