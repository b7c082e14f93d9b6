/**
 * Approval types. `src/approval` imports nothing else from `src/` (DESIGN.md): tools satisfy
 * {@link Describable} structurally.
 */

/** What the policy needs to know of a tool. `kind` (`read | edit | execute | fetch | agent`) decides whether it asks. */
export interface Describable {
  name: string;
  kind: string;
  describe(args: never): {
    summary: string;
    detail: string;
    rememberable: boolean;
    noun?: string;
    domain?: string;
    protected?: boolean;
  };
}

/** One call to decide on, as shown to the person. */
export interface ApprovalRequest {
  /** Wire name of the tool, e.g. `bash`. */
  tool: string;
  /** From the tool's kind (see `neverAsks` in policy.ts): read-only calls are never asked about. */
  readOnly: boolean;
  summary: string;
  detail: string;
  rememberable: boolean;
  /** What "always for …" calls the detail: "this command", "this URL". Default "this exact call". */
  noun?: string;
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
