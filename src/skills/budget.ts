import { withCommas } from '../util/text';
/**
 * Most characters of a repository's listings the request carries: the names and descriptions of its
 * skills (in the `skill` tool's description) and, separately, of its agent definitions (in
 * `spawn_agent`'s). A clone with thousands of them would otherwise make every request huge or too
 * large to send. The person's own skills and definitions are not counted and never left out.
 */
const PROJECT_LISTING_BUDGET = 16_000;

/**
 * Split `items` (in precedence order) into those listed and the repository's (`scope` `project`)
 * left out: project items are kept in order while their `name` and `description` add up to at most
 * `budget` characters; the first that passes it and every project item after it are left out.
 */
export function withinListingBudget<T extends { scope: string; name: string; description: string }>(
  items: readonly T[],
  budget: number = PROJECT_LISTING_BUDGET,
): { kept: T[]; leftOut: T[] } {
  const kept: T[] = [];
  const leftOut: T[] = [];
  let used = 0;
  for (const item of items) {
    if (item.scope !== 'project') {
      kept.push(item);
      continue;
    }
    used += item.name.length + item.description.length;
    if (leftOut.length === 0 && used <= budget) kept.push(item);
    else leftOut.push(item);
  }
  return { kept, leftOut };
}

/** One notice for what {@link withinListingBudget} left out, naming the first few. */
export function leftOutNotice(
  kind: 'skills' | 'agent definitions',
  leftOut: readonly { name: string }[],
): string {
  const names = leftOut.slice(0, 5).map((i) => i.name);
  const more = leftOut.length > 5 ? `, and ${leftOut.length - 5} more` : '';
  return (
    `codey: ${leftOut.length} of the repository's ${kind} left out (${names.join(', ')}${more}): ` +
    `their names and descriptions pass the ${withCommas(PROJECT_LISTING_BUDGET)} characters codey sends for a repository's ${kind}`
  );
}

/** Default characters of the skill list (and, apart, of the agent list) a tool description carries. */
export const DEFAULT_LIST_BUDGET = 6_000;

/** A listing within its budget: the entries to show, and how many did not fit at all. */
export interface FittedListing {
  /** `- name: description` entries; a multi-line description is indented under its name. */
  lines: string[];
  /** Entries left out of the listing entirely. */
  unlisted: number;
  /** True when descriptions were cut to their first line. */
  cut: boolean;
}

/**
 * Fit `items` (in the order given) into `budget` characters: whole descriptions when all fit; else
 * each description's first line (at most 200 characters); else the first entries of one line that
 * fit, and the count of the rest.
 */
export function fitListing(
  items: readonly { name: string; description: string }[],
  budget: number = DEFAULT_LIST_BUDGET,
): FittedListing {
  const whole = items.map(
    (i) =>
      `- ${i.name}: ${i.description
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
        .join('\n  ')}`,
  );
  const size = (lines: readonly string[]) => lines.reduce((n, l) => n + l.length + 1, 0);
  if (size(whole) <= budget) return { lines: whole, unlisted: 0, cut: false };
  const short = items.map((i) => {
    const first = i.description.trim().split('\n')[0].trim();
    return `- ${i.name}: ${first.length > 200 ? `${first.slice(0, 199)}…` : first}`;
  });
  const lines: string[] = [];
  let used = 0;
  for (const l of short) {
    if (used + l.length + 1 > budget) break;
    lines.push(l);
    used += l.length + 1;
  }
  return { lines, unlisted: items.length - lines.length, cut: true };
}
