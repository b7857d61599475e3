/**
 * Where the harness's BlockAssembler throws, worded exactly as it throws (docs/protocol.md §3). The harness runs on
 * Node, so a JavaScript error the engine raises (reading a property of null, calling what is not a function,
 * turning an object into a string) carries V8's wording, quoting the harness's own expression where V8 does.
 * Chunkscope runs in any browser, so it never shows the engine's own message: it builds V8's from the same facts.
 */
export class HarnessThrow extends Error {
  override readonly name = 'HarnessThrow'
}

/** V8's message for reading `property` of null or undefined: what `chunk.block.type` raises for `block: null`. */
export function nullishRead(value: null | undefined, property: string): HarnessThrow {
  return new HarnessThrow(
    `Cannot read properties of ${value === null ? 'null' : 'undefined'} (reading '${property}')`,
  )
}

/** The harness's `assertNever(chunk, 'BlockAssembler.push')` for a chunk type outside the seven (§3 A7). */
export function unreachableVariant(chunk: unknown): HarnessThrow {
  let rendered: string | undefined
  try {
    rendered = JSON.stringify(chunk) as string | undefined
  } catch {
    rendered = undefined
  }
  return new HarnessThrow(`unreachable variant in BlockAssembler.push: ${rendered ?? String(chunk)}`)
}

/**
 * Runs one of the string operations the harness performs on chunk data (`+=` on text and arguments, a template
 * with an index or block type) and rethrows what it raises in V8's words. From JSON data only two things can go
 * wrong: an object with its own `toString` key cannot become a string, and a string can grow past the engine's
 * limit; other engines word both differently.
 */
export function asHarness<T>(operation: () => T): T {
  try {
    return operation()
  } catch (thrown) {
    throw harnessThrowOf(thrown)
  }
}

/** Any error raised while reproducing the harness, as the harness would word it. */
export function harnessThrowOf(thrown: unknown): HarnessThrow {
  if (thrown instanceof HarnessThrow) return thrown
  if (thrown instanceof RangeError) return new HarnessThrow('Invalid string length')
  if (thrown instanceof TypeError) return new HarnessThrow('Cannot convert object to primitive value')
  return new HarnessThrow(thrown instanceof Error ? thrown.message : String(thrown))
}

/**
 * The harness's `interruptedBlocks()` keeps a text or reasoning block when `block.text.trim() !== ''`; for a
 * closed block whose `text` is not a string that expression throws. Returns the trimmed-empty test, or throws
 * what V8 says.
 */
export function hasVisibleText(text: unknown): boolean {
  if (typeof text === 'string') return text.trim() !== ''
  if (text === null || text === undefined) throw nullishRead(text, 'trim')
  throw new HarnessThrow('block.text.trim is not a function')
}

/**
 * The harness prunes per-block replay entries with `envelope.blocks.length` and `envelope.blocks.filter(…)`
 * (§3 read side); a finish whose `replayState.blocks` is null or not an array throws there.
 */
export function entriesLength(entries: unknown): unknown {
  if (entries === null || entries === undefined) throw nullishRead(entries, 'length')
  return (entries as { length?: unknown }).length
}

export function filterEntries(entries: unknown, keep: (position: number) => boolean): unknown[] {
  if (!Array.isArray(entries)) throw new HarnessThrow('envelope.blocks.filter is not a function')
  return entries.filter((_, position) => keep(position))
}
