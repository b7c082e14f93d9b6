import { Command, CommanderError, Option } from 'commander';
import { version } from '../../package.json';
import { longNames, normalizeArgv } from './argv';
import { settingOptions } from './setting-flags';
import { helpWidth, withHelpDetails } from './help-text';
import type { CliOptions } from './cli-options';
import { EXIT } from './exit-codes';
import { personWriter } from './person-out';

/**
 * The commander program. Only commander and the settings' plain defaults and env names (no schema,
 * no zod) are loaded up front: `--help` must not pay for zod, ink, react or the SDK, so everything
 * else is imported when a mode needs it.
 */

/**
 * The program. Its help is at most 80 columns wide and gives each setting flag's default and
 * environment variables and every setting's default ({@link withHelpDetails}).
 */
export function buildProgram(): Command {
  const program = new Command('codey')
    .description('A terminal coding agent that can look things up safely.')
    .argument('[prompt]', 'prompt for the interactive session (or for -p)')
    .option(
      '-p, --print [prompt]',
      'one-shot: run the prompt, print the answer, exit (stdin is appended when piped)',
    )
    .option('-c, --continue', 'go on with the newest session of this workspace (also with -p)')
    .option(
      '-r, --resume [id]',
      "go on with session ID (a unique start of it will do); without ID, pick one of this workspace's sessions (with -p an ID is needed)",
    );
  for (const option of settingOptions()) program.addOption(option);
  program
    .addOption(
      new Option('--output-format <format>', 'output of -p')
        .choices(['text', 'json', 'stream-json'])
        .default('text'),
    )
    .option(
      '--image <file>',
      'with -p: attach a PNG, JPEG, GIF or WebP image to the prompt (repeatable)',
      (v: string, prev: string[] | undefined) => [...(prev ?? []), v],
    )
    .option('--no-web', 'no web tools, whatever the configuration says')
    .option('--verbose', 'show configuration sources, tools and the session log path on stderr')
    .version(version, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show this help')
    .showSuggestionAfterError(true)
    // commander echoes arguments ("unknown option …"): they pass the one sanitiser like every line.
    .configureOutput({
      writeOut: personWriter((s) => process.stdout.write(s)),
      writeErr: personWriter((s) => process.stderr.write(s)),
      getOutHelpWidth: () => helpWidth(process.stdout),
      getErrHelpWidth: () => helpWidth(process.stderr),
    })
    .exitOverride();
  return withHelpDetails(program);
}

/** `codey setup --help`: the setup command's own help. */
function setupHelp(): string {
  const setup = new Command('codey setup')
    .usage('')
    .description(
      'Run the first-run setup again, in a terminal: the API key (or an endpoint), the model and the ' +
        'web search provider. Shows a summary, then merges the answers into ' +
        '$XDG_CONFIG_HOME/codey/config.json (mode 0600).',
    )
    .helpOption('-h, --help', 'show this help');
  return `${setup.helpInformation()}\nExit codes: 0 saved or cancelled, 2 no terminal or an unreadable config file.\n`;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  let args = normalizeArgv(argv.slice(2), longNames(program));
  if (args[0] === 'trust') {
    const { runTrust } = await import('./trust-command');
    const write = (stream: NodeJS.WriteStream) => personWriter((s) => stream.write(s));
    return runTrust(args.slice(1), process.cwd(), process.env, write(process.stdout), write(process.stderr));
  }
  if (args[0] === 'eval') {
    const { runEvalCommand } = await import('./eval-command');
    const write = (stream: NodeJS.WriteStream) => personWriter((s) => stream.write(s));
    return runEvalCommand(
      args.slice(1),
      process.cwd(),
      process.env,
      write(process.stdout),
      write(process.stderr),
    );
  }
  const setup = args[0] === 'setup';
  if (setup) args = args.slice(1);
  if (setup && args.some((a) => a === '-h' || a === '--help')) {
    personWriter((s) => process.stdout.write(s))(setupHelp());
    return EXIT.ok;
  }
  try {
    program.parse(args, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      if (
        err.code === 'commander.helpDisplayed' ||
        err.code === 'commander.version' ||
        err.code === 'commander.help'
      )
        return EXIT.ok;
      return EXIT.usage;
    }
    throw err;
  }
  const parsed = program.opts<CliOptions>();
  const opts: CliOptions = { ...parsed, allow: parsed.allow ?? [], verbose: parsed.verbose ?? false };
  const positional = program.args[0];
  const { runMode } = await import('./run');
  return runMode({ opts, positional, setup, version });
}
