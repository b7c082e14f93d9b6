/**
 * The `hooks` setting's schema: Claude Code's shape, `{ EVENT: [{ matcher, hooks: [{ type, command,
 * timeout }] }] }` (timeout in seconds). Event names and hook types are not checked here: src/hooks
 * names the ones it does not run, so one unknown entry costs only itself.
 */
import * as z from 'zod';

export const hooksSchema = z
  .record(
    z.string(),
    z.array(
      z.object({
        matcher: z.string().optional(),
        hooks: z.array(
          z.looseObject({
            type: z.string(),
            command: z.string().optional(),
            timeout: z.number().positive().optional(),
          }),
        ),
      }),
    ),
  )
  .default({});
