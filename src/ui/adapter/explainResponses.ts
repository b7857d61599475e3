import { isRecord } from '../../core/base/isRecord'
import { english, type T } from '../i18n/translate'
import { BUILT_IN_ITEMS } from '../../formats/sse/responsesNotes'
import type { EventNote } from './explainEvent'

/** Events that repeat what the deltas already carried; pi-ai takes a block's whole text at `output_item.done`. */
const REPEATS: ReadonlySet<string> = new Set([
  'response.content_part.added',
  'response.content_part.done',
  'response.output_text.done',
  'response.refusal.done',
  'response.reasoning_summary_part.added',
  'response.reasoning_summary_text.done',
  'response.reasoning_text.done',
])

/** The built-in tool an item type or a progress event names (`response.web_search_call.searching`), or null. */
function builtIn(name: string): string | null {
  const keys = Object.keys(BUILT_IN_ITEMS).filter((key) => name.startsWith(key))
  const key = keys.sort((a, b) => b.length - a.length)[0]
  return key === undefined ? null : `${key} (${BUILT_IN_ITEMS[key]})`
}

/**
 * Why an OpenAI Responses event became no chunk, as pi-ai reads it (docs/protocol.md §9.2): built-in tool items
 * and their progress events are named, lifecycle events and `.done` repeats are metadata, the terminal response
 * is held until the body ends.
 *
 * @example
 * explainResponses('{"type":"response.output_item.added","item":{"type":"web_search_call"}}')
 * // { kind: 'not-read', text: 'not read by this adapter: web_search_call (the built-in web search tool) — …' }
 */
export function explainResponses(data: string, t: T = english): EventNote {
  if (data.startsWith('[DONE]'))
    return {
      kind: 'held',
      text: t('adapter.responses.done'),
    }
  let payload: unknown
  try {
    payload = JSON.parse(data)
  } catch {
    return { kind: 'not-read', text: t('adapter.notReadBy', { what: t('adapter.notJson') }) }
  }
  const type = isRecord(payload) && typeof payload['type'] === 'string' ? payload['type'] : null
  if (type === null) return { kind: 'not-read', text: t('adapter.notReadBy', { what: t('adapter.noType') }) }
  if (type === 'response.created')
    return { kind: 'metadata', text: t('adapter.metadataOnly', { what: t('adapter.responses.created') }) }
  if (type === 'response.in_progress' || type === 'response.queued')
    return {
      kind: 'metadata',
      text: t('adapter.metadataOnly', { what: t('adapter.responses.progress', { type }) }),
    }
  if (type === 'response.completed' || type === 'response.incomplete')
    return {
      kind: 'held',
      text: t('adapter.responses.held'),
    }
  if (REPEATS.has(type))
    return {
      kind: 'metadata',
      text: t('adapter.metadataOnly', { what: t('adapter.responses.repeats', { type }) }),
    }
  if (type === 'response.output_item.added' || type === 'response.output_item.done') {
    const item = isRecord(payload) && isRecord(payload['item']) ? payload['item']['type'] : undefined
    const named = typeof item === 'string' ? builtIn(item) : null
    if (named !== null)
      return {
        kind: 'not-read',
        text: t('adapter.notReadBy', { what: t('adapter.responses.builtIn', { named }) }),
      }
    return {
      kind: 'not-read',
      text: t('adapter.notReadBy', { what: t('adapter.responses.item', { item: String(item) }) }),
    }
  }
  const family = /^response\.([a-z_]+)\./.exec(type)?.[1]
  const named = family === undefined ? null : builtIn(family)
  if (named !== null)
    return {
      kind: 'not-read',
      text: t('adapter.notReadBy', { what: t('adapter.responses.progressOf', { named }) }),
    }
  if (type === 'response.output_text.annotation.added')
    return { kind: 'not-read', text: t('adapter.notReadBy', { what: t('adapter.responses.annotation') }) }
  return { kind: 'not-read', text: t('adapter.notReadBy', { what: type }) }
}
