import type { SessionEvent } from '../../core/session'
import { isRecord } from '../../core/base/isRecord'
import { english, type T } from '../i18n/translate'

export type Tone = 'muted' | 'warning' | 'error'

/** A session event as one muted outline row: its type (shown in monospace) and a short text. */
export type EventLabel = { readonly type: string; readonly text: string; readonly tone: Tone }

const PREVIEW = 60

/**
 * Describes a non-chunk event of a harness log (docs/protocol.md §6) for the outline. About 48 event types exist;
 * the ones that explain a stream get a summary, every other one shows plainly by its type. `toolNames` maps
 * call ids to tool names as tool/call events go by, so a later tool/result can name its tool.
 *
 * @example
 * describeEvent({ type: 'llm/retry', data: { retry: 1, maxRetries: 2, delayMs: 1, failure: { code: 'EMPTY_RESPONSE' } } … }, new Map())
 * // { type: 'llm/retry', text: '1/2 EMPTY_RESPONSE · wait 1 ms', tone: 'warning' }
 */
export function describeEvent(
  event: SessionEvent,
  toolNames: Map<string, string>,
  t: T = english,
): EventLabel {
  const data = asRecord(event.data)
  const type = event.type
  const plain = (text: string, tone: Tone = 'muted'): EventLabel => ({ type, text, tone })
  switch (type) {
    case 'user/message': {
      const content = contentOf(data)
      return plain(content === null ? '' : quote(firstText(content) ?? describeContent(content, t)))
    }
    case 'tool/call': {
      const name = str(data['name'])
      const callId = str(data['callId'])
      if (callId !== null && name !== null) toolNames.set(callId, name)
      return plain(name ?? t('event.noName'))
    }
    case 'tool/result': {
      const callId = str(data['callId']) ?? toolResultCallId(data)
      const name = (callId !== null ? toolNames.get(callId) : undefined) ?? callId ?? ''
      return isErrorResult(data) ? plain(`${name} · isError`, 'error') : plain(`${name} · ok`)
    }
    case 'llm/retry': {
      const failure = asRecord(data['failure'])
      const retry = num(data['retry'])
      const max = num(data['maxRetries'])
      const delay = num(data['delayMs'])
      const parts = [
        retry === null ? null : max === null ? `#${retry}` : `${retry}/${max}`,
        str(failure['code']) ?? t('event.noCode'),
        delay === null ? null : `· ${t('event.wait', { ms: delay })}`,
      ]
      return plain(parts.filter((part) => part !== null).join(' '), 'warning')
    }
    case 'llm/retry-started': {
      const retry = num(data['retry'])
      return plain(retry === null ? '' : `#${retry}`)
    }
    case 'compaction/summary': {
      const summary = data['summary']
      return plain(Array.isArray(summary) ? quote(firstText(summary) ?? '') : '')
    }
    case 'request/header': {
      const header = asRecord(data['header'])
      const config = asRecord(header['config'])
      return plain([str(data['reason']), str(config['model'])].filter(Boolean).join(' · '))
    }
    case 'request/context': {
      const window = num(data['contextWindow'])
      return plain(
        [str(data['model']), window === null ? null : t('event.window', { window })]
          .filter(Boolean)
          .join(' · '),
      )
    }
    case 'approval/asked':
      return plain([str(data['toolName']), str(data['reason'])].filter(Boolean).join(': '), 'warning')
    case 'approval/decided':
      return plain(str(data['outcome']) ?? '')
    case 'approval/policy':
      return plain(str(data['policy']) ?? '')
    case 'hook/invoked':
      return plain([str(data['point']), str(data['matcher'])].filter(Boolean).join(' '))
    case 'hook/result': {
      const decision = str(data['decision'])
      return plain(
        [str(data['point']), decision].filter(Boolean).join(' '),
        decision === 'block' ? 'warning' : 'muted',
      )
    }
    case 'session/title':
      return plain(quote(str(data['title']) ?? ''))
    case 'assistant/message': {
      // Only messages linked to no attempt reach the outline: the linked ones are their attempt's ✓ / ✗.
      const why = event.sourceEventSeqs === undefined ? t('event.noSourceSeqs') : t('event.citesNoStream')
      const content = contentOf(data)
      return plain(`${why}${content === null ? '' : ` · ${describeContent(content, t)}`}`, 'warning')
    }
    default:
      return plain('')
  }
}

/** `data.content` (user/message, legacy shapes) or `data.message.content` (current shape). */
function contentOf(data: Record<string, unknown>): unknown[] | null {
  const direct = data['content']
  if (Array.isArray(direct)) return direct
  const nested = asRecord(data['message'])['content']
  return Array.isArray(nested) ? nested : null
}

function firstText(content: readonly unknown[]): string | null {
  for (const block of content) {
    const record = asRecord(block)
    if ((record['type'] === 'text' || record['type'] === 'reasoning') && typeof record['text'] === 'string')
      return record['text']
  }
  return null
}

/** `1 text, 2 tool-call`: what a content array holds, by block type. */
function describeContent(content: readonly unknown[], t: T): string {
  if (content.length === 0) return t('event.emptyContent')
  const counts = new Map<string, number>()
  for (const block of content) {
    const type = str(asRecord(block)['type']) ?? '?'
    counts.set(type, (counts.get(type) ?? 0) + 1)
  }
  return [...counts].map(([type, count]) => `${count} ${type}`).join(', ')
}

function toolResultCallId(data: Record<string, unknown>): string | null {
  return str(asRecord(asRecord(data['message'])['source'])['callId'])
}

/** Legacy shape carries `isError` on the event; current shape on each tool-result block of the message. */
function isErrorResult(data: Record<string, unknown>): boolean {
  if (data['isError'] === true) return true
  const content = contentOf(data) ?? []
  return content.some((block) => asRecord(block)['isError'] === true)
}

function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  if (line === '') return ''
  return line.length > PREVIEW ? `“${line.slice(0, PREVIEW)}…”` : `“${line}”`
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}

function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {}
}
