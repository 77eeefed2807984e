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

/** Values only the CLI knows at TAB time, asked from `recipe __complete KIND` (run ids, docs topics). */
export type ValueKind = 'runs' | 'docs';

/** One command: its options and, when its argument has a fixed set of values, those values. */
export interface CommandSpec {
  readonly name: string;
  readonly description: string;
  readonly options: readonly OptionSpec[];
  readonly argChoices: readonly string[];
  /** Its first argument's values, asked at TAB time (`resume RUN_ID`, `docs TOPIC`). */
  readonly argValues?: ValueKind;
  /** Subcommands whose first argument is a run id (`runs show RUN_ID`). */
  readonly runIdSubcommands?: readonly string[];
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
    for (const sub of c.runIdSubcommands ?? [])
      lines.push(
        `      if [[ $cword -eq 3 && \${words[2]} == ${sub} ]]; then COMPREPLY=($(compgen -W "$(_recipe_values runs)" -- "$cur")); return; fi`,
      );
    if (c.argValues)
      lines.push(
        `      if [[ $cword -eq 2 ]]; then COMPREPLY=($(compgen -W "$(_recipe_values ${c.argValues})" -- "$cur")); return; fi`,
      );
    if (c.argChoices.length > 0)
      lines.push(`      COMPREPLY=($(compgen -W "${c.argChoices.join(' ')}" -- "$cur")); return`);
    lines.push('      ;;');
    return lines.join('\n');
  });
  return `# bash completion for recipe, npx recipe and node_modules/.bin/recipe.
# Load it with: source <(npx recipe completion bash)
_recipe_complete() {
  local words=("\${COMP_WORDS[@]}") cword=$COMP_CWORD
  # The command that answers run ids and docs topics: the one being completed.
  _recipe_cmd=("\${COMP_WORDS[0]}")
  if [[ \${words[0]##*/} == npx ]]; then
    if [[ $cword -eq 1 ]]; then COMPREPLY=($(compgen -W "recipe" -- "\${words[1]}")); return; fi
    [[ \${words[1]} == recipe ]] || return
    _recipe_cmd=(npx --no recipe)
    words=("\${words[@]:1}")
    cword=$((cword - 1))
  fi
  local cur=\${words[cword]} prev=\${words[cword-1]}
  COMPREPLY=()
  if [[ $cword -eq 1 ]]; then
    COMPREPLY=($(compgen -W "${names}" -- "$cur"))
    return
  fi
  case "\${words[1]}" in
${cases.join('\n')}
  esac
  # Anything else completes as a file name (complete -o default).
}
_recipe_values() { "\${_recipe_cmd[@]}" __complete "$1" 2>/dev/null; }
complete -o default -F _recipe_complete recipe node_modules/.bin/recipe ./node_modules/.bin/recipe
# npx: only when nothing else completes npx already.
complete -p npx >/dev/null 2>&1 || complete -o default -F _recipe_complete npx
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
    const values = (kind: ValueKind) => `{compadd -- \${(f)"$(\${=_recipe_cmd} __complete ${kind} 2>/dev/null)"}}`;
    if (c.runIdSubcommands && c.runIdSubcommands.length > 0)
      specs.push(`'1:value:(${c.argChoices.join(' ')})'`, `'2:run id:${values('runs')}'`);
    else if (c.argValues) specs.push(`'1:${c.argValues === 'runs' ? 'run id' : 'topic'}:${values(c.argValues)}'`);
    else specs.push(c.argChoices.length > 0 ? `'1:value:(${c.argChoices.join(' ')})'` : `'*:file:_files'`);
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
  local _recipe_cmd=$words[1]
  [[ $_recipe_cmd == npx ]] && _recipe_cmd='npx --no recipe'
  shift words
  (( CURRENT-- ))
  case $cmd in
${cases.join('\n')}
  esac
}
_recipe_npx() {
  if (( CURRENT == 2 )); then compadd recipe; return; fi
  [[ $words[2] == recipe ]] || { _files; return; }
  shift words
  (( CURRENT-- ))
  words[1]=npx
  _recipe
}
compdef _recipe recipe node_modules/.bin/recipe ./node_modules/.bin/recipe
# npx: only when nothing else completes npx already.
(( $+_comps[npx] )) || compdef _recipe_npx npx
`;
}

function fishText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
}

function fish(commands: readonly CommandSpec[]): string {
  const lines = [
    '# fish completion for recipe. Install: recipe completion fish > ~/.config/fish/completions/recipe.fish',
    'complete -c recipe -f',
    // A dev-dependency install run by path completes as recipe does.
    'complete -c node_modules/.bin/recipe -w recipe',
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
    if (c.argValues) lines.push(`complete -c recipe ${when} -x -a '(recipe __complete ${c.argValues} 2>/dev/null)'`);
    for (const sub of c.runIdSubcommands ?? [])
      lines.push(
        `complete -c recipe -n '__fish_seen_subcommand_from ${sub}' -x -a '(recipe __complete runs 2>/dev/null)'`,
      );
    if (c.argChoices.length > 0) lines.push(`complete -c recipe ${when} -x -a '${c.argChoices.join(' ')}'`);
    else if (!c.argValues) lines.push(`complete -c recipe ${when} -F`);
  }
  return `${lines.join('\n')}\n`;
}
