/**
 * Tool inputs too large to resend. The model can write a tool_use whose input is megabytes (a 9 MB
 * path); the Messages API needs that block in every later request, so a few such calls would make
 * each request larger than the API takes and the session could not go on. A failed call's input
 * over {@link MAX_RESENT_INPUT_BYTES} is replaced in the history by a small note; a call that
 * succeeded keeps its input (what it did must stay visible to the model).
 */

/** Most bytes of serialized tool input kept for a failed call (100 KB). */
const MAX_RESENT_INPUT_BYTES = 100_000;

/** Longest tool name kept for a failed call; a longer one (no tool has it) becomes {@link CUT_NAME}. */
const MAX_RESENT_NAME_CHARS = 200;
/** The name that stands in for a tool name over {@link MAX_RESENT_NAME_CHARS}. */
const CUT_NAME = 'invalid_tool_name';

/**
 * What a failed call's tool_use becomes when its input or name is too large to resend: the new
 * name and input, and the note its tool_result gets; undefined when it may be resent as it is.
 */
export function cutToolUse(
  name: string,
  input: unknown,
): { name: string; input: unknown; note: string } | undefined {
  const bytes = inputBytes(input);
  const bigInput = bytes > MAX_RESENT_INPUT_BYTES;
  const bigName = name.length > MAX_RESENT_NAME_CHARS;
  if (!bigInput && !bigName) return undefined;
  const notes = [
    ...(bigName
      ? [
          `\n[codey: this call's tool name (${name.length} characters) was replaced in the conversation by "${CUT_NAME}"; call a tool from the tool list by its name]`,
        ]
      : []),
    ...(bigInput ? [cutInputResultNote(bytes)] : []),
  ];
  return {
    name: bigName ? CUT_NAME : name,
    input: bigInput ? cutInputNote(bytes) : input,
    note: notes.join(''),
  };
}

/** Size in bytes of `input` as JSON. */
function inputBytes(input: unknown): number {
  return Buffer.byteLength(JSON.stringify(input) ?? '', 'utf8');
}

/** The object that stands in for an input of `bytes` bytes. */
function cutInputNote(bytes: number): { codey_note: string } {
  return {
    codey_note: `the input of this call (${bytes} bytes) was cut from the conversation; it was over ${MAX_RESENT_INPUT_BYTES} bytes`,
  };
}

/** What the tool_result of such a call gets appended, so the model knows why its input is gone. */
function cutInputResultNote(bytes: number): string {
  return `\n[codey: this call's input (${bytes} bytes) was replaced in the conversation by a note, since resending it would fill every request; make the call again with a much smaller input]`;
}

/** `input` itself, or {@link cutInputNote} when it is over {@link MAX_RESENT_INPUT_BYTES}: for events and records a person sees. */
export function shownInput(input: unknown): unknown {
  const bytes = inputBytes(input);
  return bytes > MAX_RESENT_INPUT_BYTES ? cutInputNote(bytes) : input;
}
