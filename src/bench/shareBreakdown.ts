import { measureBodyV3 } from '../formats/share/codecV3'
import type { Sections } from '../formats/share/layout'
import type { Cuts } from '../formats/share/textModel'

/**
 * Where a share link's characters go (docs/protocol.md §14): its body's bits by section, as base64url
 * characters (6 bits each), plus the frame. The skeleton's bytes are named by the payload field they belong to
 * (`skeleton: attempt`, `skeleton: whole chunks`…), the text's long strings by the field they left (`text: name`),
 * the chunk numbers by column (`numbers: time`), so the biggest overhead of a link can be seen and attacked.
 */
export async function linkBreakdown(payload: unknown): Promise<Map<string, number>> {
  const { bits } = await measureBodyV3(payload, cutSections)
  const chars = new Map<string, number>()
  for (const [section, count] of bits) chars.set(section, count / 6)
  return chars
}

const HOLE = 0x7f

/** Names the skeleton's bytes by field, and the text's pieces: the deltas' content, then each long string. */
function cutSections(sections: Sections): { skeleton: Cuts; text: Cuts } {
  const bytes = sections.parts.skeleton
  const skeleton: [number, string][] = []
  const holes: string[] = []
  // The skeleton is `[shell, whole chunks, tool ids]`: a byte is named by the shell key it falls under.
  const keys: (string | number)[] = []
  let label = 'skeleton: frame'
  let at = 0
  const name = () => {
    const [top, key] = keys
    if (top === 1) return 'whole chunks'
    if (top === 2) return 'tool ids'
    return typeof key === 'string' ? key : 'shell'
  }
  const mark = (end: number, next: string) => {
    if (next === label) return
    if (end > at) skeleton.push([end, label])
    at = end
    label = next
  }
  let i = 0
  let lastString = ''
  while (i < bytes.length) {
    const byte = bytes[i]!
    if (byte === 0x22) {
      let j = i + 1
      while (bytes[j] !== 0x22) j += bytes[j] === 0x5c ? 2 : 1
      lastString = new TextDecoder().decode(bytes.subarray(i + 1, j))
      const isKey = bytes[j + 1] === 0x3a
      if (isKey) {
        if (keys.length === 2) keys[1] = lastString
        else if (keys.length > 2) keys[keys.length - 1] = lastString
        mark(i, `skeleton: ${name()}`)
      } else if (bytes[i + 1] === HOLE && j - i - 1 <= 2) {
        if (j - i - 1 === 1) holes.push(`text: ${name()}${keys.length > 2 ? `.${keys.at(-1)}` : ''}`)
      }
      i = j + 1
      continue
    }
    if (byte === 0x5b || byte === 0x7b) keys.push(byte === 0x7b ? '' : 0)
    else if (byte === 0x5d || byte === 0x7d) keys.pop()
    else if (byte === 0x2c && typeof keys.at(-1) === 'number')
      keys[keys.length - 1] = (keys.at(-1) as number) + 1
    if (keys.length === 1 || (keys.length === 2 && typeof keys[0] === 'number' && keys[0] > 0))
      mark(i, `skeleton: ${name()}`)
    i++
  }
  mark(bytes.length, '')
  const encoder = new TextEncoder()
  const text: [number, string][] = []
  const content = sections.columns?.text ?? ''
  let end = encoder.encode(content).length
  if (end > 0) text.push([end, 'text: content'])
  let unit = content.length
  sections.parts.strLens.forEach((length, n) => {
    end += encoder.encode(sections.textString.slice(unit, unit + length)).length
    unit += length
    text.push([end, holes[n] ?? 'text: strings'])
  })
  return { skeleton, text }
}
