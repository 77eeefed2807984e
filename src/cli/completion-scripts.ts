/** The shells `recipe completion` writes scripts for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** One option of a command, as completion needs it. */
export interface OptionSpec {
  readonly short?: string;
  readonly long?: string;
  readonly description: string;
  readonly takesValue: boolean;
  readonly choices?: readonly string[];
  readonly fileValue: boolean;
  readonly repeatable: boolean;
}

/** One command: its options and, when its argument has a fixed set of values, those values. */
export interface CommandSpec {
  readonly name: string;
  readonly description: string;
  readonly options: readonly OptionSpec[];
  readonly argChoices: readonly string[];
}

/** The completion script for `shell`; static text, so sourcing it runs no `recipe` process. */
export function renderCompletion(shell: Shell, commands: readonly CommandSpec[]): string {
  switch (shell) {
    case 'bash':
      return bash(commands);
    case 'zsh':
      return zsh(commands);
    case 'fish':
      return fish(commands);
  }
}

const flagsOf = (o: OptionSpec): string[] => [o.short, o.long].filter((f): f is string => f !== undefined);

function bash(commands: readonly CommandSpec[]): string {
  const names = [...commands.map((c) => c.name), '-h', '--help', '-V', '--version'].join(' ');
  const cases = commands.map((c) => {
    const lines = [`    ${c.name})`];
    const choiceOpts = c.options.filter((o) => o.choices);
    if (choiceOpts.length > 0) {
      lines.push('      case "$prev" in');
      for (const o of choiceOpts)
        lines.push(
          `        ${flagsOf(o).join('|')}) COMPREPLY=($(compgen -W "${o.choices!.join(' ')}" -- "$cur")); return ;;`,
        );
      lines.push('      esac');
    }
    const valueOpts = c.options.filter((o) => o.takesValue && !o.choices && !o.fileValue);
    if (valueOpts.length > 0)
      lines.push(`      case "$prev" in ${valueOpts.flatMap(flagsOf).join('|')}) return ;; esac`);
    const flags = [...c.options.flatMap(flagsOf), '-h', '--help'].join(' ');
    lines.push(`      if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "${flags}" -- "$cur")); return; fi`);
    if (c.argChoices.length > 0)
      lines.push(`      COMPREPLY=($(compgen -W "${c.argChoices.join(' ')}" -- "$cur")); return`);
    lines.push('      ;;');
    return lines.join('\n');
  });
  return `# bash completion for recipe. Load it with: source <(recipe completion bash)
_recipe_complete() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]}
  COMPREPLY=()
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "${names}" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases.join('\n')}
  esac
  # Anything else completes as a file name (complete -o default).
}
complete -o default -F _recipe_complete recipe
`;
}

/** Text safe inside a single-quoted zsh word and inside _arguments' [description]. */
function zshText(text: string): string {
  return text.replace(/'/g, "'\\''").replace(/\[/g, '(').replace(/\]/g, ')').replace(/:/g, ' -');
}

function zsh(commands: readonly CommandSpec[]): string {
  const described = commands.map((c) => `    '${c.name}:${zshText(c.description)}'`).join('\n');
  const cases = commands.map((c) => {
    const specs = c.options.map((o) => {
      const flags = flagsOf(o);
      const desc = `[${zshText(o.description)}]`;
      const value = !o.takesValue
        ? ''
        : o.choices
          ? `:value:(${o.choices.join(' ')})`
          : o.fileValue
            ? ':file:_files'
            : ':value: ';
      const star = o.repeatable ? '*' : '';
      if (flags.length === 2) return `'${star}(${flags.join(' ')})'{${flags.join(',')}}'${desc}${value}'`;
      return `'${star}${flags[0]}${desc}${value}'`;
    });
    specs.push(c.argChoices.length > 0 ? `'1:value:(${c.argChoices.join(' ')})'` : `'*:file:_files'`);
    return `    ${c.name})\n      _arguments -s \\\n        ${specs.join(' \\\n        ')}\n      ;;`;
  });
  return `#compdef recipe
# zsh completion for recipe. Load it with: source <(recipe completion zsh)   (after compinit)
_recipe() {
  local -a recipe_commands
  recipe_commands=(
${described}
  )
  if (( CURRENT == 2 )); then
    _describe -t commands 'recipe command' recipe_commands
    return
  fi
  local cmd=$words[2]
  shift words
  (( CURRENT-- ))
  case $cmd in
${cases.join('\n')}
  esac
}
compdef _recipe recipe
`;
}

function fishText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
}

function fish(commands: readonly CommandSpec[]): string {
  const lines = [
    '# fish completion for recipe. Install: recipe completion fish > ~/.config/fish/completions/recipe.fish',
    'complete -c recipe -f',
  ];
  for (const c of commands)
    lines.push(`complete -c recipe -n __fish_use_subcommand -a ${c.name} -d '${fishText(c.description)}'`);
  for (const c of commands) {
    const when = `-n '__fish_seen_subcommand_from ${c.name}'`;
    for (const o of c.options) {
      const parts = [`complete -c recipe ${when}`];
      if (o.short) parts.push(`-s ${o.short.replace(/^-/, '')}`);
      if (o.long) parts.push(`-l ${o.long.replace(/^--/, '')}`);
      if (o.choices) parts.push(`-x -a '${o.choices.join(' ')}'`);
      else if (o.fileValue) parts.push('-r -F');
      else if (o.takesValue) parts.push('-x');
      parts.push(`-d '${fishText(o.description)}'`);
      lines.push(parts.join(' '));
    }
    if (c.argChoices.length > 0) lines.push(`complete -c recipe ${when} -x -a '${c.argChoices.join(' ')}'`);
    else lines.push(`complete -c recipe ${when} -F`);
  }
  return `${lines.join('\n')}\n`;
}
