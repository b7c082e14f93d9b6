/** Shell control operators and substitutions: after one of them another command may run. */
export const SHELL_CONTROL = /[;&|<>`\n\r]|\$\(/;

/** Prefix of commands that run the command after them: `sudo rm` is `rm` for a deny rule. */
const WRAPPERS = new Set([
  'command',
  'builtin',
  'exec',
  'env',
  'sudo',
  'doas',
  'nohup',
  'time',
  'nice',
  'xargs',
  'stdbuf',
  'timeout',
]);

/** Shell reserved words that may stand before a command (`if rm`, `then rm`, `do rm`, `! rm`). */
const KEYWORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'while',
  'until',
  '!',
  'case',
  'esac',
]);
/** `find` options whose following words are a command. */
const EXEC_FLAGS = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/**
 * The simple commands of a shell line, normalised for deny rules: split at every operator and
 * substitution, environment assignments and wrappers (`sudo`, `env`, `command`, …, with their
 * options) dropped, quotes and backslashes removed from the command word, a path reduced to its
 * name (`/bin/rm` → `rm`), blanks collapsed. Deliberately over-eager: a deny rule should match too
 * much rather than too little. Not a shell parser: `eval` and encoded commands get past it.
 */
export function simpleCommands(line: string): string[] {
  const out: string[] = [];
  for (const piece of line.split(/;|&&|\|\||\||&|\n|\r|\$\(|`|<\(|>\(|\(|\)|\{|\}/)) {
    const words = piece.replace(/\\\n/g, ' ').trim().split(/\s+/).filter(Boolean);
    let wrapped = false;
    while (words.length > 0) {
      const w = words[0].replace(/["'\\]/g, '');
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w) || KEYWORDS.has(w)) words.shift();
      else if (WRAPPERS.has(w.split('/').pop() ?? w)) {
        words.shift();
        wrapped = true;
      } else break;
    }
    // After a wrapper its options may take values (`sudo -u root rm`): every later word may be the
    // command, so each suffix is a candidate.
    const starts = wrapped ? words.map((_, i) => i) : words.length > 0 ? [0] : [];
    // `find … -exec rm {} \;` runs the words after -exec as a command.
    words.forEach((w, i) => {
      if (EXEC_FLAGS.has(w) && i + 1 < words.length) starts.push(i + 1);
    });
    for (const i of starts) {
      const head = words[i].replace(/["'\\]/g, '');
      out.push([head.split('/').pop() || head, ...words.slice(i + 1)].join(' '));
    }
  }
  return out;
}
