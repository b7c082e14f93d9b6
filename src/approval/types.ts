/**
 * Approval types. `src/approval` imports nothing else from `src/` (DESIGN.md): tools satisfy
 * {@link Describable} structurally.
 */

/** What the policy needs to know of a tool. */
export interface Describable {
  name: string;
  readOnly: boolean;
  describe(args: never): {
    summary: string;
    detail: string;
    rememberable: boolean;
    domain?: string;
    protected?: boolean;
  };
}

/** One call to decide on, as shown to the person. */
export interface ApprovalRequest {
  /** Wire name of the tool, e.g. `bash`. */
  tool: string;
  readOnly: boolean;
  summary: string;
  detail: string;
  rememberable: boolean;
  /** Host of the URL, for web_fetch's "always for this domain". */
  domain?: string;
  /**
   * A change to a path codey guards (`.git/`, `package.json`, codey's own config files, in any case): no rule allows it except an
   * exact rule for this very detail, so a broad `write_file` rule cannot rewrite git hooks or grant
   * codey new permissions.
   */
  protected?: boolean;
  /** What the call would change, to show before the answer: `{ path, before, after }` for edits. */
  preview?: Record<string, unknown>;
}

/** The person's answer to an approval request. */
export type Decision =
  | { kind: 'allow_once' }
  | { kind: 'allow_tool' }
  | { kind: 'allow_detail' }
  | { kind: 'allow_domain' }
  | { kind: 'deny' }
  | { kind: 'deny_with_message'; message: string };

/** The policy's verdict; `rule` names the rule that decided, for the model and the log. */
export type Verdict =
  { action: 'allow'; rule?: string } | { action: 'deny'; rule?: string } | { action: 'ask' };
