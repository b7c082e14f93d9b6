/**
 * What the model reads about a read-only file (`shown` as displayed, `mode` from stat): codey leaves
 * it alone unless the person approves making it writable.
 */
export function readOnlyMessage(shown: string, mode: number): string {
  const octal = (mode & 0o7777).toString(8).padStart(4, '0');
  return (
    `${shown} is read-only (mode ${octal}); codey does not change read-only files. If it should ` +
    `change, make it writable with bash (chmod u+w ${shown}), which the person is asked to approve, ` +
    'then call again'
  );
}
