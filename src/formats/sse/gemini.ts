import type { ReplayEnvelope, StreamChunk } from '../../core/protocol'
import { piAiFinish } from './piAiFailure'
import { at, js, piAiUsage, type PiUsage } from './piAiRead'
import { noteBuffer, type WireTranslator } from './translator'
import { piAiResponse, type PiAiStopReason as StopReason } from './piAiResponse'

type PiBlock =
  | { kind: 'text'; text: unknown; signature?: string }
  | { kind: 'thinking'; text: unknown; signature?: string }
  | { kind: 'toolCall'; id: string; name: string; args: unknown; signature?: unknown }

type TextBlock = { kind: 'text' | 'thinking'; text: unknown; signature?: string }

/** Gemini's finish reasons pi-ai maps; any other fails the stream. */
const FINISH_ERRORS = new Set([
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'SAFETY',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
  'IMAGE_OTHER',
  'RECITATION',
  'FINISH_REASON_UNSPECIFIED',
  'OTHER',
  'LANGUAGE',
  'MALFORMED_FUNCTION_CALL',
  'UNEXPECTED_TOOL_CALL',
  'NO_IMAGE',
])

/** The response fields the `@google/genai` SDK keeps (it copies these and drops the rest, nulls included). */
const KEPT_PARTS = ['text', 'thought', 'thoughtSignature', 'functionCall']

/**
 * The Gemini `streamGenerateContent?alt=sse` stream as the harness's pi-ai route assembles it (docs/protocol.md §9.3):
 * the `@google/genai` SDK cuts and parses the events (`geminiSse.ts`) and keeps only the fields it knows, pi-ai
 * 0.82.1 turns each chunk's first candidate into its content blocks, the route maps those to chunks:
 * - parts with `text` run into one block while they stay the same kind (`thought: true` → reasoning, else text);
 *   a change of kind or a `functionCall` closes it;
 * - a `functionCall` is a whole tool call at once: start, one delta `JSON.stringify(args)`, end; without an `id`
 *   (or with one already used) pi-ai makes one up from the name, the clock and a process-wide counter, which a
 *   capture cannot reproduce: Chunkscope writes `<name>_0_<n>` (n counting this stream's made-up ids) and says so;
 * - `finishReason` STOP → stop, MAX_TOKENS → max-tokens, a tool call → tool-calls, SAFETY and the other blocking
 *   reasons → an error (`An unknown error occurred`); `usageMetadata`: input less cached, output = candidates +
 *   thoughts, the last chunk's counts winning;
 * - the body's end closes the open block and finishes; text after the last blank line fails the stream
 *   (`Incomplete JSON segment at the end`), as bad JSON does.
 * Candidates after the first, and parts of other kinds (inline data, executable code, …) are not read: named.
 *
 * @example
 * const t = createGeminiTranslator()
 * t.push('{"candidates":[{"content":{"parts":[{"text":"Hi"}]}}]}')
 * // [bs0 text, td0 "Hi"]
 */
export function createGeminiTranslator(): WireTranslator {
  const blocks: PiBlock[] = []
  let current: TextBlock | null = null
  let usage: PiUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }
  let stopReason: StopReason = 'stop'
  let errorMessage: string | undefined
  let responseId: unknown
  let model: string | null = null
  let madeUpIds = 0
  let finished = false
  const skippedParts = new Map<string, number>()
  const notes = noteBuffer()
  const note = notes.note

  const usageChunk = (): StreamChunk => ({ type: 'usage', usage: piAiUsage(usage) })
  const finishReason = () =>
    piAiFinish({ stopReason, errorMessage, model: model ?? 'unknown', blockCount: blocks.length })
  const summarize = () => {
    if (skippedParts.size > 0) {
      const kinds = [...skippedParts].map(([kind, count]) => `${kind} ×${count}`).join(', ')
      note(
        'skipped-parts',
        'info',
        `parts pi-ai keeps nothing of (only text, thought and functionCall): ${kinds}`,
      )
      skippedParts.clear()
    }
  }
  const fail = (message: string): StreamChunk[] => {
    summarize()
    finished = true
    stopReason = 'error'
    errorMessage = message
    return [usageChunk(), { type: 'finish', reason: finishReason() }]
  }
  const close = (): StreamChunk[] => {
    if (current === null) return []
    const index = blocks.length - 1
    const block: StreamChunk =
      current.kind === 'text'
        ? { type: 'block-end', index, block: { type: 'text', text: current.text as string } }
        : { type: 'block-end', index, block: { type: 'reasoning', text: current.text as string } }
    return [block]
  }

  const part = (value: unknown, out: StreamChunk[]) => {
    const text = at(value, 'text')
    // Parts reach pi-ai as sent (the SDK copies `content` whole), so a `null` text counts as text.
    if (text !== undefined) {
      const thinking = at(value, 'thought') === true
      const kind = thinking ? 'thinking' : 'text'
      const open: TextBlock | null = current
      const block: TextBlock = open !== null && open.kind === kind ? open : { kind, text: '' }
      if (block !== open) {
        out.push(...close())
        current = block
        blocks.push(block)
        out.push({
          type: 'block-start',
          index: blocks.length - 1,
          blockType: thinking ? 'reasoning' : 'text',
        })
      }
      block.text = (block.text as string) + (text as string)
      const signature = at(value, 'thoughtSignature')
      if (typeof signature === 'string' && signature.length > 0) block.signature = signature
      const index = blocks.length - 1
      out.push(
        thinking
          ? { type: 'reasoning-delta', index, text: text as string }
          : { type: 'text-delta', index, text: text as string },
      )
    }
    const call = at(value, 'functionCall')
    if (call) {
      out.push(...close())
      current = null
      const provided = at(call, 'id')
      const name = at(call, 'name')
      const fresh = !provided || blocks.some((block) => block.kind === 'toolCall' && block.id === provided)
      if (fresh) {
        madeUpIds += 1
        if (madeUpIds === 1)
          note(
            'made-up-id',
            'info',
            'a functionCall without an id: pi-ai makes one up as <name>_<clock>_<counter>, which no capture can reproduce; shown as <name>_0_<n>',
          )
      }
      const args = at(call, 'args') ?? {}
      const signature = at(value, 'thoughtSignature')
      const block: PiBlock = {
        kind: 'toolCall',
        id: fresh ? `${js(name)}_0_${madeUpIds}` : (provided as string),
        name: (name || '') as string,
        args,
        ...(signature ? { signature } : {}),
      }
      blocks.push(block)
      const index = blocks.length - 1
      out.push({ type: 'block-start', index, blockType: 'tool-call' })
      out.push({
        type: 'tool-call-delta',
        index,
        id: block.id,
        ...(typeof block.name === 'string' && block.name.length > 0 ? { name: block.name } : {}),
        argumentsDelta: JSON.stringify(args),
      })
      out.push({
        type: 'block-end',
        index,
        block: { type: 'tool-call', id: block.id, name: block.name, arguments: JSON.stringify(args) },
      })
    }
    if (typeof value === 'object' && value !== null)
      for (const key of Object.keys(value))
        if (!KEPT_PARTS.includes(key) && key !== 'partMetadata' && key !== 'videoMetadata')
          skippedParts.set(key, (skippedParts.get(key) ?? 0) + 1)
  }

  /** Reads one chunk into `out`: what pi-ai emitted before a failure stays emitted. */
  const apply = (chunk: Record<string, unknown>, out: StreamChunk[]): void => {
    if (!responseId) responseId = chunk['responseId']
    const candidates = chunk['candidates']
    const candidate = candidates === undefined ? undefined : at(candidates, '0')
    if (Array.isArray(candidates) && candidates.length > 1)
      note('candidates', 'info', `${candidates.length} candidates: pi-ai reads the first only`)
    const content = at(candidate, 'content', true)
    const parts = at(content, 'parts', true)
    if (parts) {
      if (typeof parts !== 'string' && !(Symbol.iterator in Object(parts)))
        throw new TypeError('candidate.content.parts is not iterable')
      for (const value of parts as Iterable<unknown>) part(value, out)
    }
    const reason = at(candidate, 'finishReason', true)
    if (reason) {
      stopReason = mapFinish(reason)
      if (blocks.some((block) => block.kind === 'toolCall')) stopReason = 'toolUse'
    }
    const meta = chunk['usageMetadata']
    if (meta) {
      const cached = at(meta, 'cachedContentTokenCount') || 0
      usage = {
        input: ((at(meta, 'promptTokenCount') || 0) as number) - (cached as number),
        output:
          ((at(meta, 'candidatesTokenCount') || 0) as number) +
          ((at(meta, 'thoughtsTokenCount') || 0) as number),
        cacheRead: cached,
        cacheWrite: 0,
      }
    }
  }

  return {
    push(data) {
      if (finished) return []
      let parsed: unknown
      try {
        parsed = JSON.parse(data)
      } catch (error) {
        note('unparsable', 'error', `not JSON (${String((error as Error).message)}); the stream fails here`)
        return fail((error as Error).message)
      }
      const chunk = sdkChunk(parsed)
      if (model === null && typeof chunk['modelVersion'] === 'string' && chunk['modelVersion'] !== '')
        model = chunk['modelVersion']
      const out: StreamChunk[] = []
      try {
        apply(chunk, out)
        return out
      } catch (error) {
        return [...out, ...fail(error instanceof Error ? error.message : JSON.stringify(error))]
      }
    },
    end(reason) {
      if (finished) return []
      summarize()
      // Text after the last blank line: the SDK throws before pi-ai closes anything.
      if (reason === 'eof') return fail('Incomplete JSON segment at the end')
      const out = close()
      current = null
      if (stopReason === 'error') return [...out, ...fail('An unknown error occurred')]
      finished = true
      return [...out, usageChunk(), { type: 'finish', reason: finishReason(), replayState: replayEnvelope() }]
    },
    get finished() {
      return finished
    },
    takeNotes: notes.take,
  }

  function replayEnvelope(): ReplayEnvelope {
    return {
      response: piAiResponse('google-generative-ai', 'google', model, responseId, stopReason),
      blocks: blocks.map((block) =>
        block.kind === 'text'
          ? { type: 'text', ...(block.signature === undefined ? {} : { textSignature: block.signature }) }
          : block.kind === 'thinking'
            ? {
                type: 'reasoning',
                ...(block.signature === undefined ? {} : { thinkingSignature: block.signature }),
              }
            : {
                type: 'tool-call',
                ...(block.signature === undefined ? {} : { thoughtSignature: block.signature }),
              },
      ),
    }
  }
}

/** What the SDK hands pi-ai of a parsed chunk: its known top-level fields, nulls dropped, candidates trimmed too. */
function sdkChunk(parsed: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  if (typeof parsed !== 'object' || parsed === null) return out
  const source = parsed as Record<string, unknown>
  for (const key of ['candidates', 'modelVersion', 'promptFeedback', 'responseId', 'usageMetadata']) {
    const value = source[key]
    if (value === null || value === undefined) continue
    out[key] =
      key === 'candidates' && Array.isArray(value)
        ? value.map((candidate) => {
            const kept: Record<string, unknown> = {}
            if (typeof candidate !== 'object' || candidate === null) return kept
            for (const field of ['content', 'finishReason']) {
              const v = (candidate as Record<string, unknown>)[field]
              if (v !== null && v !== undefined) kept[field] = v
            }
            return kept
          })
        : value
  }
  return out
}

function mapFinish(reason: unknown): StopReason {
  if (reason === 'STOP') return 'stop'
  if (reason === 'MAX_TOKENS') return 'length'
  if (typeof reason === 'string' && FINISH_ERRORS.has(reason)) return 'error'
  throw new Error(`Unhandled stop reason: ${js(reason)}`)
}

/** The model the route would name for a Gemini body: the first chunk's `modelVersion`. */
export function geminiModelOf(chunk: unknown): string | null {
  const model =
    typeof chunk === 'object' && chunk !== null ? (chunk as Record<string, unknown>)['modelVersion'] : null
  return typeof model === 'string' && model !== '' ? model : null
}
