import type { ContentBlock } from '../../core/protocol'
import { streamsSession, type Attempt } from '../../core/session'
import { isRecord } from '../../core/base/isRecord'
import { parseJson } from '../json'
import type { Diagnostic, ReadResult } from '../types'
import { readNdjsonWire } from '../wire/readWire'
import { createAiSdkDialect } from './aiSdkParts'

/**
 * `@ai-sdk/devtools`' store, `.devtools/generations.json` (`{runs, steps}`, written whole by its middleware): a
 * JSON object whose first 64 KiB name `runs`, `steps` and `step_number`.
 */
export function sniffDevtools(text: string): boolean {
  const head = text.slice(0, 1 << 16)
  return head.trimStart().startsWith('{') && /"runs"\s*:/.test(head) && /"step_number"\s*:/.test(head)
}

/**
 * Each streamed step of a devtools store as a stream (docs/protocol.md §9, "Wires without a harness route", "AI SDK"): its `raw_response` — the
 * language-model stream parts the middleware saw — read part by part by the AI SDK reader (one part per line of the
 * Adapter view's text), and its `output` — what the middleware collected: text, reasoning and tool calls — as the
 * recorded message, in the order those parts ended in the stream. `generate` steps have no stream and are named.
 */
export function readDevtools(text: string): ReadResult {
  const parsed = parseJson(text)
  if (!parsed.ok || !isRecord(parsed.value) || !Array.isArray(parsed.value['steps']))
    return {
      sessions: [],
      diagnostics: [
        {
          severity: 'error',
          message: `not a whole devtools store (${parsed.ok ? 'no steps array' : parsed.reason}): the middleware writes the file whole, so a cut one cannot be read`,
        },
      ],
    }
  const runs = Array.isArray(parsed.value['runs']) ? parsed.value['runs'] : []
  const runIndex = new Map(runs.map((run, i) => [isRecord(run) ? run['id'] : undefined, i + 1]))
  const diagnostics: Diagnostic[] = []
  const streams: Attempt[] = []
  let generated = 0
  for (const step of parsed.value['steps']) {
    if (!isRecord(step)) continue
    const id = `run${runIndex.get(step['run_id']) ?? '?'}.step${String(step['step_number'] ?? '?')}`
    if (step['type'] !== 'stream') {
      generated += 1
      continue
    }
    const parts = typeof step['raw_response'] === 'string' ? parseJson(step['raw_response']) : null
    if (parts === null || !parts.ok || !Array.isArray(parts.value)) {
      diagnostics.push({ severity: 'warning', message: `${id}: raw_response holds no stream parts: skipped` })
      continue
    }
    const body = parts.value.map((part) => JSON.stringify(part)).join('\n') + '\n'
    const read = readNdjsonWire(body, 'ai-sdk-devtools', createAiSdkDialect(), { id })
    for (const d of read.diagnostics) diagnostics.push({ ...d, message: `${id} ${d.message}` })
    if (typeof step['error'] === 'string')
      diagnostics.push({
        severity: 'warning',
        message: `${id}: the step recorded an error: ${step['error']}`,
      })
    const attempt = read.attempt
    if (attempt === null) continue
    const output = typeof step['output'] === 'string' ? parseJson(step['output']) : null
    if (output?.ok && isRecord(output.value)) {
      attempt.recorded = {
        seq: attempt.chunks.at(-1)?.seq ?? 0,
        line: 1,
        turn: null,
        step: null,
        interrupted: false,
        content: collectedBlocks(output.value, parts.value),
        message: output.value,
        shape: 'current',
        sourceEventSeqs: [],
        provenance: 'unknown',
        attemptId: id,
        citation: { missing: [], foreign: [], uncited: [] },
        source: `the devtools output of ${id}`,
      }
    }
    streams.push(attempt)
  }
  if (generated > 0)
    diagnostics.push({
      severity: 'info',
      message: `${generated} generate step${generated === 1 ? '' : 's'} (no stream: nothing to replay) not shown`,
    })
  if (streams.length === 0) {
    diagnostics.push({ severity: 'error', message: 'no streamed step in the devtools store' })
    return { sessions: [], diagnostics }
  }
  return { sessions: [streamsSession(streams)], diagnostics }
}

/** The middleware's collected output as blocks, in the order their parts ended in the stream. */
function collectedBlocks(output: Record<string, unknown>, parts: readonly unknown[]): ContentBlock[] {
  const list = (key: string) => (Array.isArray(output[key]) ? output[key].filter(isRecord) : [])
  const texts = list('textParts')
  const reasoning = list('reasoningParts')
  const calls = list('toolCalls')
  const take = (from: Record<string, unknown>[], match: (r: Record<string, unknown>) => boolean) => {
    const at = from.findIndex(match)
    return at === -1 ? null : from.splice(at, 1)[0]!
  }
  const blocks: ContentBlock[] = []
  for (const part of parts) {
    if (!isRecord(part)) continue
    if (part['type'] === 'text-end') {
      const found = take(texts, (t) => t['id'] === part['id'])
      if (found) blocks.push({ type: 'text', text: String(found['text'] ?? '') })
    } else if (part['type'] === 'reasoning-end') {
      const found = take(reasoning, (t) => t['id'] === part['id'])
      if (found) blocks.push({ type: 'reasoning', text: String(found['text'] ?? '') })
    } else if (part['type'] === 'tool-call' && part['providerExecuted'] !== true) {
      const found = take(calls, (t) => t['toolCallId'] === part['toolCallId'])
      if (found) {
        const input = found['input']
        const args = typeof input === 'string' ? parseJson(input) : { ok: true as const, value: input }
        blocks.push({
          type: 'tool-call',
          id: String(found['toolCallId'] ?? ''),
          name: String(found['toolName'] ?? ''),
          arguments: args.ok ? JSON.stringify(args.value ?? {}) : String(input),
        })
      }
    }
  }
  return blocks
}
