import type { SubagentRole } from './subagent-types';

/**
 * The part of a subagent's system prompt after codey's own: that it is a subagent, that its final
 * message is a report to another agent, what the report holds, and the definition's instructions.
 */
export function subagentPrompt(role: SubagentRole): string {
  const parts = [
    '',
    'You are a subagent: another codey agent gave you the task in the first user message, and no person reads this conversation.',
    '- Work on that task alone; you cannot ask questions. When something is unclear, make the most reasonable choice and say so.',
    '- Your final message is the whole report the other agent receives: say what you found or changed, with file paths (and line numbers where they help), what you ran and what happened, and anything left undone. Leave out the steps that led there.',
  ];
  if (role.instructions?.trim()) parts.push('', 'Instructions for this subagent:', role.instructions.trim());
  return parts.join('\n');
}
