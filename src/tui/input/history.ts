/**
 * Input history, persisted as JSON lines (one JSON string a line, so multi-line entries survive) and
 * appended as entries are submitted. A damaged line is skipped, never fatal.
 */
import { readFileSync } from 'node:fs';
import { appendFile, chmod, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { redactor } from '../../util/redact';
import { escapeJsonControls, forTerminal } from '../../util/terminal-text';

/** Entries kept in memory and offered by up/down. */
const MAX_HISTORY = 1000;

/**
 * Reads the history file, oldest first, each entry without terminal controls (`forTerminal`); [] when
 * it does not exist or cannot be read. Synchronous: it
 * runs once at start-up on a file capped by use ({@link MAX_HISTORY} entries are kept in memory).
 */
export function loadHistory(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const entries: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      const parsed: unknown = JSON.parse(line);
      // Typed text never holds terminal controls; an older file may.
      const entry = typeof parsed === 'string' ? forTerminal(parsed) : '';
      if (entry !== '') entries.push(entry);
    } catch {
      // A torn write (two sessions at once, a crash): skip the line.
    }
  }
  return entries.slice(-MAX_HISTORY);
}

/**
 * Appends one entry, creating the folder (0700) and the file (0600: a prompt may quote private
 * text). `secrets`, and anything shaped like an Anthropic key, are written as `[redacted]`
 * (`redactor`, src/util/redact). A file that exists with wider permissions is narrowed to 0600.
 * Rejects with the file system's error.
 */
export async function appendHistory(
  file: string,
  entry: string,
  secrets: readonly string[] = [],
): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const line = `${escapeJsonControls(JSON.stringify(redactor(secrets)(entry)))}\n`;
  await appendFile(file, line, { encoding: 'utf8', mode: 0o600 });
  await chmod(file, 0o600);
}

/** The list after submitting `entry`: an immediate repeat is not stored twice. */
export function pushHistory(entries: readonly string[], entry: string): string[] {
  if (entry.trim() === '' || entries[entries.length - 1] === entry) return entries.slice();
  return [...entries, entry].slice(-MAX_HISTORY);
}
