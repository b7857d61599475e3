import { commonEnds } from '../../core/base/commonEnds'
import { isRecord } from '../../core/base/isRecord'
import { Malformed } from './bytes'

// A v5 link's recorded message as a difference from what its own chunks build (docs/protocol.md §14): the opener
// assembles those chunks anyway, so a recorded block equal to the one its chunks built costs a `0`, and a block
// that differs carries only the fields that differ (a string as its common prefix and suffix with the built one
// and the middle). The cited seqs missing from the log are left out when they are exactly the seqs the chunks
// skip. What is built here is the codec's own, frozen reading of the chunks (never the assembler's, whose fixes
// must not change what an old link opens to); it only has to be the same on both sides.

type Built = { type: string | null; text: string; id: unknown; name: unknown; args: string; end: unknown }

/**
 * Per chunk index (ascending), the block the chunks give: a block-end's own block, or what the deltas since its
 * block-start built (`{type, text}`, `{type: 'tool-call', id, name, arguments}`).
 */
export function builtBlocks(chunks: readonly unknown[]): unknown[] {
  const byIndex = new Map<number, Built>()
  for (const chunk of chunks) {
    if (!isRecord(chunk) || !Number.isSafeInteger(chunk['index'])) continue
    const index = chunk['index'] as number
    const type = chunk['type']
    let built = byIndex.get(index)
    if (built === undefined || type === 'block-start') {
      built = { type: null, text: '', id: undefined, name: undefined, args: '', end: undefined }
      byIndex.set(index, built)
    }
    if (type === 'block-start' && typeof chunk['blockType'] === 'string') built.type = chunk['blockType']
    else if ((type === 'text-delta' || type === 'reasoning-delta') && typeof chunk['text'] === 'string') {
      built.type ??= type === 'text-delta' ? 'text' : 'reasoning'
      built.text += chunk['text']
    } else if (type === 'tool-call-delta') {
      built.type ??= 'tool-call'
      if ('id' in chunk) built.id = chunk['id']
      if ('name' in chunk) built.name = chunk['name']
      if (typeof chunk['argumentsDelta'] === 'string') built.args += chunk['argumentsDelta']
    } else if (type === 'block-end') built.end = chunk['block']
  }
  return [...byIndex]
    .sort(([a], [b]) => a - b)
    .map(([, built]) => {
      if (built.end !== undefined) return built.end
      if (built.type === 'tool-call')
        return { type: 'tool-call', id: built.id, name: built.name, arguments: built.args }
      return { type: built.type, text: built.text }
    })
}

/**
 * Below this many UTF-16 units shared with the built blocks a difference is not worth its syntax: the byte model
 * predicts a block's keys and type names from its primer better than it predicts `0`s and prefix lengths.
 */
const WORTH = 16

/**
 * The recorded content as a difference from `built` (see the file's comment), or null when it shares too little
 * with them to be shorter so.
 */
export function diffContent(content: readonly unknown[], built: readonly unknown[]): unknown[] | null {
  let shared = 0
  const diff = content.map((block, i) => {
    const base = built[i]
    if (same(block, base)) {
      shared += JSON.stringify(block).length
      return 0
    }
    if (!isRecord(block) || !isRecord(base)) return [block]
    const fields: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(block)) {
      const field = diffValue(value, base[key])
      if (field === 0 && key !== 'type') shared += JSON.stringify(value).length
      if (Array.isArray(field) && field.length === 3) shared += (field[0] as number) + (field[1] as number)
      fields[key] = field
    }
    return fields
  })
  return shared >= WORTH ? diff : null
}

function diffValue(value: unknown, base: unknown): unknown {
  if (base !== undefined && same(value, base)) return 0
  if (typeof value !== 'string' || typeof base !== 'string') return [value]
  const { head: prefix, tail: suffix } = commonEnds(value, base)
  if (prefix + suffix < WORTH) return [value]
  return [prefix, suffix, value.slice(prefix, value.length - suffix)]
}

/** The recorded content back from its difference. Throws Malformed. */
export function patchContent(diff: unknown, built: readonly unknown[]): unknown[] {
  if (!Array.isArray(diff)) throw new Malformed('its recorded message is not a list of blocks')
  return diff.map((item, i) => {
    const base = built[i]
    if (item === 0) {
      if (base === undefined) throw new Malformed('its recorded message repeats a block its chunks lack')
      return structuredClone(base)
    }
    if (Array.isArray(item) && item.length === 1) return item[0]
    if (!isRecord(item) || !isRecord(base))
      throw new Malformed('its recorded message differs from a block its chunks lack')
    const block: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(item)) block[key] = patchValue(value, base[key])
    return block
  })
}

function patchValue(value: unknown, base: unknown): unknown {
  if (value === 0 && base !== undefined) return structuredClone(base)
  if (Array.isArray(value) && value.length === 1) return value[0]
  if (Array.isArray(value) && value.length === 3 && typeof base === 'string') {
    const [prefix, suffix, middle] = value as [unknown, unknown, unknown]
    if (
      Number.isSafeInteger(prefix) &&
      Number.isSafeInteger(suffix) &&
      (prefix as number) >= 0 &&
      (suffix as number) >= 0 &&
      (prefix as number) + (suffix as number) <= base.length &&
      typeof middle === 'string'
    )
      return base.slice(0, prefix as number) + middle + base.slice(base.length - (suffix as number))
  }
  throw new Malformed('its recorded message has a field it cannot rebuild')
}

/** Past this many skipped seqs a link lists them itself (the opener never builds a longer list). */
const MOST_SKIPPED = 1_000_000

/** The seqs the chunks skip: every integer strictly between two consecutive ascending seqs (null: too many). */
export function skippedSeqs(seqs: readonly number[]): number[] | null {
  const skipped: number[] = []
  for (let i = 1; i < seqs.length; i++) {
    if (seqs[i]! - seqs[i - 1]! > MOST_SKIPPED - skipped.length) return null
    for (let s = seqs[i - 1]! + 1; s < seqs[i]!; s++) skipped.push(s)
  }
  return skipped
}

/** JSON-equal, key order included (what the opener gets back is the JSON). */
function same(a: unknown, b: unknown): boolean {
  return b !== undefined && JSON.stringify(a) === JSON.stringify(b)
}
