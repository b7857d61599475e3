import { assembleOpen, type AssemblerState, type PartialBlock } from '../../core/BlockAssembler'
import { isRecord } from '../../core/base/isRecord'
import { jsonEqual } from '../../core/jsonEqual'

// The assembler state a window link carries (its start, and the stream's end): frozen blocks that equal what
// their deltas built travel as a position in `built` and are rebuilt by the opener.

/** Leaves out every frozen block that equals what its deltas built (the opener rebuilds it). */
export function compactState(state: AssemblerState): { state: AssemblerState; built?: number[] } {
  const built: number[] = []
  const partials = state.partials.map(([index, partial], position): [number, PartialBlock] => {
    if (partial.block === undefined || !sameAsBuilt(partial, index)) return [index, partial]
    built.push(position)
    const { block: _block, ...rest } = partial
    return [index, rest]
  })
  return built.length === 0 ? { state } : { state: { ...state, partials }, built }
}

function sameAsBuilt(partial: Readonly<PartialBlock>, index: number): boolean {
  try {
    return jsonEqual(assembleOpen(partial, index), partial.block)
  } catch {
    return false
  }
}

/** A carried state with the blocks `built` lists rebuilt from their deltas; null when malformed. */
export function expandState(value: unknown, builtValue: unknown): AssemblerState | null {
  const checked = readState(value)
  if (checked === null) return null
  const built = builtValue ?? []
  if (!Array.isArray(built)) return null
  const partials = checked.partials.slice()
  for (const position of built as unknown[]) {
    const entry = typeof position === 'number' ? partials[position] : undefined
    if (entry === undefined || entry[1].block !== undefined) return null
    let block
    try {
      block = assembleOpen(entry[1], entry[0])
    } catch {
      return null
    }
    partials[position as number] = [entry[0], { ...entry[1], block }]
  }
  return { ...checked, partials }
}

/**
 * An AssemblerState from untrusted JSON, or null when its shape is wrong. The assembler keeps what the chunks said
 * (docs/protocol.md §3): an index, a tool call's id and name and a block-end's `block` may be any JSON value (an
 * index `"0"` or `null`, an id `0`, a block `5`), and a window cut after such a chunk carries them as they are. Only
 * the texts the assembler builds by concatenation are always strings.
 */
export function readState(value: unknown): AssemblerState | null {
  if (!isRecord(value) || !Array.isArray(value['partials'])) return null
  const partials: [number, PartialBlock][] = []
  for (const entry of value['partials'] as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 2) return null
    const [index, partial] = entry as [unknown, unknown]
    if (index === undefined || !isRecord(partial)) return null
    const { blockType, text, toolCallId, toolCallName, toolCallArguments, block } = partial
    if (typeof text !== 'string' || typeof toolCallArguments !== 'string') return null
    partials.push([
      index as number,
      {
        blockType: blockType as string,
        text,
        toolCallArguments,
        ...(toolCallId !== undefined ? { toolCallId: toolCallId as string } : {}),
        ...(toolCallName !== undefined ? { toolCallName: toolCallName as string } : {}),
        ...(block !== undefined ? { block: block as PartialBlock['block'] & object } : {}),
      },
    ])
  }
  const { usage, finish, replayState, failure } = value
  if (failure !== undefined && typeof failure !== 'string') return null
  if (usage !== undefined && !isRecord(usage)) return null
  if (finish !== undefined && (!isRecord(finish) || typeof finish['kind'] !== 'string')) return null
  if (replayState !== undefined && !isRecord(replayState)) return null
  return {
    partials,
    ...(usage !== undefined ? { usage: usage as never } : {}),
    ...(finish !== undefined ? { finish: finish as never } : {}),
    ...(replayState !== undefined ? { replayState: replayState as never } : {}),
    // A window after a push that threw: the harness read none of its chunks (docs/protocol.md §3).
    ...(failure !== undefined ? { failure } : {}),
  }
}
