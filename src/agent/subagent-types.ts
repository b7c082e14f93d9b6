/**
 * An agent definition as the agent layer takes it (found and parsed by src/skills/agents.ts, which
 * the agent layer does not import): the child's instructions, the tools it may have, its model.
 */
export interface SubagentDefinition {
  name: string;
  description: string;
  /** codey tool names; absent: every tool the child would have anyway. */
  tools?: readonly string[];
  /** A model id or an alias (`inherit`, `sonnet`, `opus`, `haiku`); absent: the parent's model. */
  model?: string;
  instructions: string;
  /**
   * `project`: found in the repository, which may not pick a model the session does not use (see
   * `childModel`); `user` or absent: the person's own.
   */
  scope?: 'project' | 'user';
}

/** How the session builds subagents (settings `max_agent_depth`, `max_parallel_agents`, `agent_max_turns`). */
export interface SubagentSettings {
  readonly definitions: readonly SubagentDefinition[];
  /** Deepest level that may exist: 1 lets the main agent spawn children that spawn none (1–3). */
  readonly maxDepth: number;
  /** Most subagents of one assistant message running at once. */
  readonly maxParallel: number;
  /** Most model requests in one child's run. */
  readonly maxTurns: number;
  /** The model the session was configured with (`model`), for resolving a family alias. */
  readonly sessionModel: string;
  /** `model_aliases`: the model id each family alias (`opus`, `sonnet`, `haiku`) names; absent: none. */
  readonly modelAliases?: Readonly<Record<string, string>>;
}

/** What makes an agent a subagent: its id, the label the person sees, and its definition's instructions. */
export interface SubagentRole {
  agentId: string;
  label: string;
  /** The definition's body; absent for a general subagent. */
  instructions?: string;
}
