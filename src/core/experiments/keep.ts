import { analyzeStream } from '../analyzeStream'
import { RULES, type RuleId } from '../checks'
import { firstDivergence } from '../firstDivergence'
import { jsonEqual } from '../jsonEqual'
import type { ContentBlock, SourcedChunk } from '../protocol'
import type { RecordedMessage } from '../sessionTypes'

/**
 * What a minimised stream must still show (docs/protocol.md §13): the `--keep` of `chunkscope minimize`.
 * - `recorded-mismatch`: it still differs from the recorded message, first at the same field for the same known
 *   cause (otherwise the empty stream would always do: it differs from any record);
 * - `finding:<rule>`: that §5 rule still fires;
 * - `throws`: the harness still throws (a push, or reading `blocks()`, §3);
 * - `text:<substring>`: some text, reasoning or tool-call arguments of `blocks()` still contains the substring.
 */
export type KeepProperty =
  | { readonly kind: 'recorded-mismatch' }
  | { readonly kind: 'finding'; readonly rule: RuleId }
  | { readonly kind: 'throws' }
  | { readonly kind: 'text'; readonly text: string }

export const KEEP_FORMS = 'recorded-mismatch, finding:<rule-id>, throws or text:<substring>'

/**
 * @example
 * parseKeep('finding:delta-after-end') // { kind: 'finding', rule: 'delta-after-end' }
 * parseKeep('finding:nope') // 'unknown rule "nope" (…)'
 */
export function parseKeep(spec: string): KeepProperty | string {
  if (spec === 'recorded-mismatch' || spec === 'finding:recorded-mismatch')
    return { kind: 'recorded-mismatch' }
  if (spec === 'throws') return { kind: 'throws' }
  if (spec.startsWith('text:')) {
    const text = spec.slice('text:'.length)
    return text === '' ? 'text: needs a substring (text:hello)' : { kind: 'text', text }
  }
  if (spec.startsWith('finding:')) {
    const rule = spec.slice('finding:'.length)
    if (!Object.hasOwn(RULES, rule))
      return `unknown rule ${JSON.stringify(rule)} (one of ${Object.keys(RULES).join(', ')})`
    return { kind: 'finding', rule: rule as RuleId }
  }
  return `unknown property ${JSON.stringify(spec)}: expected ${KEEP_FORMS}`
}

export function keepLabel(property: KeepProperty): string {
  switch (property.kind) {
    case 'recorded-mismatch':
    case 'throws':
      return property.kind
    case 'finding':
      return `finding:${property.rule}`
    case 'text':
      return `text:${property.text}`
  }
}

/** Chunks numbered 0, 1, 2… (times kept): how every candidate is replayed, so a removed chunk leaves no seq gap. */
export function renumbered(chunks: readonly SourcedChunk[]): SourcedChunk[] {
  return chunks.map((sourced, seq) => (sourced.seq === seq ? sourced : { ...sourced, seq }))
}

/**
 * The test a candidate stream must pass; a string when the property cannot be asked of this stream (no recorded
 * message for `recorded-mismatch`). Candidates are numbered afresh ({@link renumbered}) before the test.
 */
export function keepTest(
  property: KeepProperty,
  recorded: RecordedMessage | null,
  whole: readonly SourcedChunk[],
): ((chunks: readonly SourcedChunk[]) => boolean) | string {
  switch (property.kind) {
    case 'finding':
      return (chunks) => analyzeStream(chunks).findings.some((f) => f.rule === property.rule)
    case 'throws':
      return (chunks) => analyzeStream(chunks).error !== null
    case 'text':
      return (chunks) => (analyzeStream(chunks).blocks ?? []).some((b) => contains(b, property.text))
    case 'recorded-mismatch': {
      if (recorded === null) return 'the stream has no recorded message (assistant/message) to differ from'
      const where = (chunks: readonly SourcedChunk[]) => mismatch(chunks, recorded)
      const reference = where(renumbered(whole))
      if (reference === null) return (chunks) => where(chunks) !== null
      return (chunks) => {
        const found = where(chunks)
        return found !== null && found.field === reference.field && found.cause === reference.cause
      }
    }
  }
}

/** Where the chunks part from the record (field and cause kind); null when they agree. */
function mismatch(
  chunks: readonly SourcedChunk[],
  recorded: RecordedMessage,
): { field: string; cause: string | null } | null {
  const result = analyzeStream(chunks)
  const failed = result.errorPos !== null
  const blocks = failed ? null : recorded.interrupted ? result.interruptedBlocks : result.blocks
  if (blocks !== null && jsonEqual(blocks, recorded.content)) return null
  const divergence = firstDivergence({
    chunks,
    expected: recorded.content,
    interrupted: recorded.interrupted,
  })
  return { field: divergence?.field ?? 'block', cause: divergence?.cause?.kind ?? null }
}

function contains(block: ContentBlock, text: string): boolean {
  const fields = block as Readonly<Record<string, unknown>>
  const value = block.type === 'tool-call' ? fields['arguments'] : fields['text']
  return typeof value === 'string' && value.includes(text)
}
