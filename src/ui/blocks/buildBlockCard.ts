import { showValue } from '../../core/checks'
import type { BlockFrame, BlockLife, ReplayEngine, ReplayFrame } from '../../core/ReplayEngine'
import type { ContentBlock } from '../../core/protocol'
import { english, type T } from '../i18n/translate'
import { diffBlocks, type FieldDiff } from './buildDiff'

/** What a card needs from the engine: chunks by position and their effect kinds. */
export type EngineView = Pick<ReplayEngine, 'chunks' | 'effectAt' | 'memo'>

export type Note = { readonly tone: 'info' | 'warning' | 'error'; readonly text: string }

/** How many characters of the newest delta to highlight in the card's text or arguments (0 = none). */
export function latestDelta(frame: ReplayFrame, index: number): { text: number; arguments: number } {
  const effect = frame.last?.effect
  if (effect === undefined || !('index' in effect) || effect.index !== index) return { text: 0, arguments: 0 }
  if (effect.kind === 'append-text') return { text: effect.chars, arguments: 0 }
  if (effect.kind === 'append-arguments') return { text: 0, arguments: effect.chars }
  return { text: 0, arguments: 0 }
}

/** A long text shown by its tail (the end is where deltas land), with how much is hidden before it. */
export type Shown = { readonly hidden: number; readonly plain: string; readonly marked: string }

/**
 * Splits a text for display: at most `limit` characters from its end unless `all`, the last `mark` characters apart
 * so they can be highlighted. Never splits a surrogate pair at the cut.
 *
 * @example
 * showTail('Hello world', 6, 100, false) // { hidden: 0, plain: 'Hello', marked: ' world' }
 */
export function showTail(text: string, mark: number, limit: number, all: boolean): Shown {
  let start = all || text.length <= limit ? 0 : text.length - limit
  if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start += 1
  const markAt = Math.max(start, text.length - Math.max(0, mark))
  return { hidden: start, plain: text.slice(start, markAt), marked: text.slice(markAt) }
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}

/** An id the tool-call deltas of one block switched to (every delta overwrites the id, docs/protocol.md §3 A3). */
export type IdChange = {
  readonly pos: number
  readonly seq: number
  readonly from: string
  readonly to: string
}

/**
 * Every id change among a block's accepted tool-call deltas, once per block life (O(its chunks)), kept with the
 * engine.
 *
 * @example
 * idChanges(engine, life) // [{ pos: 7, seq: 7, from: 'call_a', to: 'call_b' }]
 */
export function idChanges(engine: EngineView, life: BlockLife): readonly IdChange[] {
  return engine.memo('id-changes', life, () => scanIdChanges(engine, life))
}

function scanIdChanges(engine: EngineView, life: BlockLife): readonly IdChange[] {
  const changes: IdChange[] = []
  let current: string | undefined
  for (const pos of life.touches) {
    if (engine.effectAt(pos).kind !== 'append-arguments') continue
    const sourced = engine.chunks.at(pos)!
    const id = showValue((sourced.chunk as { id?: unknown }).id)
    if (current !== undefined && id !== current)
      changes.push({ pos, seq: sourced.seq, from: current, to: id })
    current = id
  }
  return changes
}

const KNOWN_OPEN_TYPES = new Set(['text', 'reasoning', 'tool-call'])

/**
 * The notes a card shows about its block at frame k: what created it, what the assembler will make of it, and
 * anything a reader could miss (lost deltas, changed or synthesized ids, a retyping block-end).
 */
export function blockNotes(
  engine: EngineView,
  block: BlockFrame,
  k: number,
  maxTokens = false,
  t: T = english,
): Note[] {
  const { life } = block
  const notes: Note[] = []
  if (maxTokens && (block.block?.type ?? life.blockType) === 'tool-call') {
    notes.push({
      tone: 'info',
      text: t('note.dropped'),
    })
  }
  if (life.implicit) {
    const opener = engine.chunks.at(life.openedAt)
    notes.push({
      tone: 'warning',
      text: t('note.implicit', { type: opener?.chunk.type ?? 'chunk', seq: opener?.seq ?? '?' }),
    })
  }
  if (block.state === 'open' && !KNOWN_OPEN_TYPES.has(life.blockType)) {
    notes.push({
      tone: 'error',
      text: t('note.cannotAssemble', { type: life.blockType }),
    })
  }
  const endType = block.block?.type
  if (endType !== undefined && endType !== life.blockType) {
    notes.push({
      tone: 'error',
      text: t('note.retyped', { opened: life.blockType, closed: showValue(endType) }),
    })
  }
  if (life.blockType !== 'tool-call' && block.toolCallArguments !== '') {
    notes.push({
      tone: 'warning',
      text: t('note.argumentsLost', { count: block.toolCallArguments.length, type: life.blockType }),
    })
  }
  if (life.blockType === 'tool-call' && block.text !== '') {
    notes.push({
      tone: 'warning',
      text: t('note.textLost', { count: block.text.length }),
    })
  }
  if (life.blockType === 'tool-call') notes.push(...toolCallIdNotes(engine, block, k, t))
  return notes
}

function toolCallIdNotes(engine: EngineView, block: BlockFrame, k: number, t: T): Note[] {
  const notes: Note[] = []
  for (const change of idChanges(engine, block.life)) {
    if (change.pos >= k) break
    notes.push({
      tone: 'warning',
      text: t('note.idChanged', { seq: change.seq, from: quote(change.from), to: quote(change.to) }),
    })
  }
  const id = block.block?.type === 'tool-call' ? showValue(block.block['id']) : block.toolCallId
  if (block.state === 'open' && block.toolCallId === undefined) {
    notes.push({
      tone: 'warning',
      text: t('note.noId', { index: showValue(block.life.index) }),
    })
  } else if (id === '') {
    notes.push({ tone: 'warning', text: t('note.emptyId', { empty: "''" }) })
  } else if (id === `call-${showValue(block.life.index)}`) {
    notes.push({ tone: 'warning', text: t('note.synthesizedId', { id: showValue(id) }) })
  }
  return notes
}

const quote = (id: string): string => (id === '' ? "''" : id)

/**
 * The diff a frozen card shows: what the deltas built (before) against the block-end's block (after). A frozen
 * partial never changes (§3 A4), so the diff is computed once per block-end block (kept with the engine) and
 * reused on every later step.
 */
export function frozenDiff(engine: EngineView, block: BlockFrame): FieldDiff[] | null {
  const { streamed, block: ended } = block
  if (!block.differs || ended === undefined || streamed === null) return null
  return engine.memo('frozen-diff', ended, () => diffBlocks(streamed, ended))
}

/** The fields a card shows for a block as given (frozen) or as it would assemble now (open). */
export type BlockFields = {
  readonly type: string
  readonly text: string | null
  readonly id: string | null
  readonly name: string | null
  readonly arguments: string | null
  /** Any other fields, as JSON text, for block types the protocol does not name. */
  readonly other: string | null
}

export function blockFields(block: ContentBlock): BlockFields {
  const { type, text, id, name, arguments: args, ...rest } = block as Record<string, unknown>
  const str = (value: unknown): string | null =>
    value === undefined ? null : typeof value === 'string' ? value : JSON.stringify(value)
  return {
    type: showValue(type),
    text: str(text),
    id: str(id),
    name: str(name),
    arguments: str(args),
    other: Object.keys(rest).length > 0 ? JSON.stringify(rest, null, 2) : null,
  }
}
