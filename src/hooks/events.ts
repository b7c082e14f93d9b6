/**
 * The hook events in plain words, by Claude Code's names (`HOOK_EVENTS` in util/shapes): when each
 * runs, and what a matcher is matched against.
 */
import type { HookEvent } from '../util/shapes';

/** When a hook of each event runs, completing "this command would run on your machine …". */
export const HOOK_WHEN: Readonly<Record<HookEvent, string>> = {
  PreToolUse: 'before each tool call its matcher names (it may refuse the call)',
  PermissionRequest:
    'whenever codey would ask you to approve a tool call its matcher names (it may answer for you)',
  PostToolUse: 'after each successful tool call its matcher names (the model reads what it says)',
  PostToolUseFailure: 'after each failed tool call its matcher names (the model reads what it says)',
  UserPromptSubmit: 'whenever you send a prompt (it may refuse the prompt)',
  Stop: 'whenever the model ends its turn (it may make the model go on)',
  SubagentStop: 'whenever a subagent ends (it may make the subagent go on)',
  SessionStart: 'when a session starts (the model reads what it prints)',
  SessionEnd: 'when the session ends',
  PreCompact: 'before the conversation is compacted',
  Notification: 'whenever codey needs your attention',
};

/**
 * What a matcher of each event is matched against: the tool's names for the tool events, the
 * session's start (`startup | resume | clear | compact`), the compaction's trigger (`manual | auto`),
 * the notification's type (`permission_prompt | idle_prompt`), the session's end; `none`: a matcher
 * is ignored and every hook of the event runs.
 */
export const MATCHED_ON: Readonly<Record<HookEvent, string>> = {
  PreToolUse: 'tool',
  PermissionRequest: 'tool',
  PostToolUse: 'tool',
  PostToolUseFailure: 'tool',
  UserPromptSubmit: 'none',
  Stop: 'none',
  SubagentStop: 'none',
  SessionStart: 'source',
  SessionEnd: 'reason',
  PreCompact: 'trigger',
  Notification: 'notification_type',
};
