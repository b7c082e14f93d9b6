/**
 * Approval types. `src/approval` imports only `src/util` (DESIGN.md): tools satisfy
 * {@link Describable} structurally.
 */
import type {
  CallPreview,
  DescribeContext,
  PermissionMode,
  ToolCallDescription,
  ToolKind,
} from '../util/shapes';

/** What the policy needs to know of a tool. `kind` (`read | edit | execute | fetch | agent`) decides whether it asks. */
export interface Describable {
  name: string;
  kind: ToolKind;
  describe(args: never, at?: DescribeContext): ToolCallDescription;
}

/** One call to decide on, as shown to the person. */
export interface ApprovalRequest extends ToolCallDescription {
  /** Wire name of the tool, e.g. `bash`. */
  tool: string;
  /** The tool's kind: `read` and `agent` calls are never asked about (see `neverAsks` in policy.ts). */
  kind: ToolKind;
  /** What the call would change, to show before the answer (edit_file, write_file). */
  preview?: CallPreview;
  /** The workspace the call runs in (absolute): relative path rules are read from it. */
  cwd?: string;
  /** The label of the subagent asking (its spawn_agent description); absent for the main agent. */
  agent?: string;
}

/** The person's answer to an approval request. */
export type Decision =
  | { kind: 'allow_once' }
  /** Once, with the network (a sandboxed command). */
  | { kind: 'allow_network' }
  /**
   * Once, outside the sandbox (a sandboxed command the sandbox stops): only the person gives it, in
   * the prompt; no rule, setting or argument of the model's does.
   */
  | { kind: 'allow_unsandboxed' }
  | { kind: 'allow_tool' }
  | { kind: 'allow_detail' }
  | { kind: 'allow_domain' }
  | { kind: 'deny' }
  | { kind: 'deny_with_message'; message: string };

/**
 * The policy's verdict; `rule` names the rule that decided, `mode` the permission mode that did
 * (plan refusing a change, accept-edits or bypass allowing one), for the model and the log.
 */
export type Verdict =
  /** `network`: a `net:` rule allowed it, with the network (a sandboxed command gets it). */
  | { action: 'allow'; rule?: string; mode?: PermissionMode; network?: boolean }
  | { action: 'deny'; rule?: string; mode?: PermissionMode }
  /** `rule`: an ask rule asked for this call. */
  | { action: 'ask'; rule?: string };
