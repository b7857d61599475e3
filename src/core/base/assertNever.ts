/**
 * The default branch of a switch over a union that names every variant: the compiler rejects the call when a
 * variant is added and not handled, and a value from outside the types (bad data) fails loudly, naming where.
 * Worded as the harness's own helper: the value as JSON (`String(value)` when JSON has no text for it).
 *
 * @example
 * switch (effect.kind) {
 *   case 'open': …
 *   default: return assertNever(effect.kind, 'effectLabel')
 * }
 */
export function assertNever(value: never, where?: string): never {
  const rendered = (JSON.stringify(value) as string | undefined) ?? String(value)
  throw new Error(`unreachable variant${where ? ` in ${where}` : ''}: ${rendered}`)
}
