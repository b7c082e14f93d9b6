/** Text helpers more than one layer needs. */

/**
 * The name a person sees for a tool's wire name (STYLE.md rule 19): the parts between `_`, `-` and
 * spaces in PascalCase, `web_fetch` → `WebFetch`, `bash` → `Bash`, `mcp__git__log` → `McpGitLog`.
 */
export function displayName(wireName: string): string {
  return wireName
    .split(/[_\-\s]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}
