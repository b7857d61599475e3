import { kindOf } from './json'
import { isRecord } from '../core/base/isRecord'

/**
 * Why a JSON value cannot be a chunk at all (`fatal`), or which field of a known chunk type is missing or of the
 * wrong type (`field`); null when it looks fine. Index values are left to the checks (`index-invalid`, §5), and
 * unknown types are fine here: the engine reports them as `unknown-chunk` (§3 A7).
 */
export function chunkProblem(value: unknown): { fatal: boolean; reason: string } | null {
  if (!isRecord(value)) return { fatal: true, reason: `not a JSON object (got ${kindOf(value)})` }
  const type = value['type']
  if (typeof type !== 'string') return { fatal: true, reason: `no string "type" (got ${kindOf(type)})` }
  const reason = fieldProblem(type, value)
  return reason === null ? null : { fatal: false, reason: `${type} ${reason}` }
}

function fieldProblem(type: string, chunk: Record<string, unknown>): string | null {
  switch (type) {
    case 'block-start':
      return expectString(chunk, 'blockType')
    case 'text-delta':
    case 'reasoning-delta':
      return expectString(chunk, 'text')
    case 'tool-call-delta':
      return (
        expectString(chunk, 'id') ??
        expectString(chunk, 'argumentsDelta') ??
        ('name' in chunk ? expectString(chunk, 'name') : null)
      )
    case 'block-end': {
      const block = chunk['block']
      if (!isRecord(block)) return `has no "block" object (got ${kindOf(block)})`
      return typeof block['type'] === 'string' ? null : 'block has no string "type"'
    }
    case 'usage':
      return isRecord(chunk['usage']) ? null : `has no "usage" object (got ${kindOf(chunk['usage'])})`
    case 'finish': {
      const reason = chunk['reason']
      if (!isRecord(reason)) return `has no "reason" object (got ${kindOf(reason)})`
      return typeof reason['kind'] === 'string' ? null : 'reason has no string "kind"'
    }
    default:
      return null
  }
}

function expectString(chunk: Record<string, unknown>, key: string): string | null {
  const value = chunk[key]
  return typeof value === 'string' ? null : `has no string "${key}" (got ${kindOf(value)})`
}
