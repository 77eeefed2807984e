/** A repeatable option's argParser for commander: each occurrence appends its value (`-i a=1 -i b=2`). */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
