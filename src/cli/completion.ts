import { Argument, type Command } from 'commander';
import { renderCompletion, SHELLS, type CommandSpec, type OptionSpec, type Shell } from './completion-scripts.js';

/** `recipe completion bash|zsh|fish`: prints a completion script made from the commands' own definitions. */
export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish)')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .addHelpText(
      'after',
      `
The scripts complete \`recipe\`, \`npx recipe\` (when nothing else completes npx) and
\`node_modules/.bin/recipe\`: commands, options, option values, run ids (\`resume\`, \`runs show\`, asked
from the journal of the folder you are in) and \`docs\` topics.

Install (in the project where recipe is a dev dependency; the script itself does not depend on it):
  bash   npx recipe completion bash > ~/.recipe-completion.bash && echo 'source ~/.recipe-completion.bash' >> ~/.bashrc
  zsh    npx recipe completion zsh > ~/.recipe-completion.zsh && echo 'source ~/.recipe-completion.zsh' >> ~/.zshrc   (after compinit)
  fish   npx recipe completion fish > ~/.config/fish/completions/recipe.fish`,
    )
    .action((shell: Shell) => {
      process.stdout.write(renderCompletion(shell, describeProgram(program)));
    });
}

/** The commands, options and choices of the program, read from commander (every command is registered). */
function describeProgram(program: Command): CommandSpec[] {
  const specs: CommandSpec[] = program.commands
    .filter((cmd) => !cmd.name().startsWith('__'))
    .map((cmd) => {
      const first = cmd.registeredArguments[0]?.name();
      const runIdSubcommands = cmd.commands
        .filter((sub) => sub.registeredArguments[0]?.name() === 'run-id')
        .map((sub) => sub.name());
      return {
        name: cmd.name(),
        description: cmd.description(),
        options: cmd.options.filter((o) => !o.hidden).map(optionSpec),
        argChoices: [
          ...cmd.registeredArguments.flatMap((a) => a.argChoices ?? []),
          ...cmd.commands.map((sub) => sub.name()),
        ],
        // Run ids and docs topics are asked at TAB time (`recipe __complete runs|docs`).
        ...(first === 'run-id'
          ? { argValues: 'runs' as const }
          : first === 'topic'
            ? { argValues: 'docs' as const }
            : {}),
        ...(runIdSubcommands.length > 0 ? { runIdSubcommands } : {}),
      };
    });
  specs.push({
    name: 'help',
    description: 'show help for a command',
    options: [],
    argChoices: specs.map((s) => s.name),
  });
  return specs;
}

function optionSpec(o: Command['options'][number]): OptionSpec {
  const valueName = /[<[]([^>\]]+)[>\]]/.exec(o.flags)?.[1];
  return {
    ...(o.short ? { short: o.short } : {}),
    ...(o.long ? { long: o.long } : {}),
    description: o.description,
    takesValue: o.required || o.optional,
    ...(o.argChoices ? { choices: o.argChoices } : {}),
    // Values named like a path complete as files; others (URLs, ids, name=value) offer nothing.
    fileValue: valueName !== undefined && /file|path|dir/i.test(valueName),
    repeatable: o.description.includes('repeatable'),
  };
}
