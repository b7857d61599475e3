import type { AssistantMessage, AssistantMessageEvent, Model, Usage } from '@earendil-works/pi-ai'
import { isContextOverflow } from '@earendil-works/pi-ai'
import { stream } from '@earendil-works/pi-ai/api/anthropic-messages'
import { stream as bedrockStream } from '@earendil-works/pi-ai/api/bedrock-converse-stream'
import { stream as googleStream } from '@earendil-works/pi-ai/api/google-generative-ai'
import { stream as responsesStream } from '@earendil-works/pi-ai/api/openai-responses'
import type { FinishReason, StreamChunk, TokenUsage } from '../core/protocol'
import { piAiModelOf } from '../formats/sse/piAiSse'
import { namesContextWindowExceeded, piAiFailureCode } from '../formats/sse/piAiFailure'

/**
 * The test oracle for Anthropic Messages bodies: the real pi-ai 0.82.1 reads the body (through its own Anthropic
 * SDK client, whose only transport is a fake `fetch` answering with the recording), and its events are mapped to
 * StreamChunks the way the harness's pi-ai route does (docs/protocol.md §9, "The harness's pi-ai route"). The mapping is
 * written here from that description, not taken from the harness.
 *
 * The harness passes its catalog model's context window to the overflow check; a body does not name one, so the
 * oracle (like Chunkscope) passes none. The route's model id is the body's first `message_start.message.model`.
 */
export async function piAiChunks(
  body: string,
  status = 200,
  headers: Record<string, string> = { 'content-type': 'text/event-stream' },
  /** Byte offsets where the response body is cut into separate reads (none: one read). */
  cuts: readonly number[] = [],
): Promise<{ chunks: StreamChunk[]; fetchCalls: string[] }> {
  return piAiApiChunks('anthropic-messages', piAiModelOf(body), body, status, headers, cuts)
}

/** The pi-ai APIs the oracle drives, each as the harness's route would configure it. */
export type OracleApi = 'anthropic-messages' | 'openai-responses' | 'google-generative-ai'

/**
 * The same oracle for any of {@link OracleApi}: `model` is the id the route would name (the body's own model, as
 * Chunkscope reads it). `body` is a string (SSE) or bytes (a binary event stream).
 */
export async function piAiApiChunks(
  api: OracleApi,
  model: string,
  body: string | Uint8Array,
  status = 200,
  headers: Record<string, string> = { 'content-type': 'text/event-stream' },
  /** Byte offsets where the response body is cut into separate reads (none: one read). */
  cuts: readonly number[] = [],
): Promise<{ chunks: StreamChunk[]; fetchCalls: string[] }> {
  const fetchCalls: string[] = []
  const realFetch = globalThis.fetch
  globalThis.fetch = (async (input: RequestInfo | URL) => {
    fetchCalls.push(input instanceof Request ? input.url : String(input))
    const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body
    const ends = [...cuts, bytes.length]
    const reads = ends.map((end, i) => bytes.subarray(i === 0 ? 0 : ends[i - 1], end))
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = reads.shift()
        if (next === undefined) controller.close()
        else controller.enqueue(next)
      },
    })
    return new Response(stream, { status, headers })
  }) as typeof fetch
  try {
    const context = { messages: [{ role: 'user' as const, content: 'hi', timestamp: 0 }] }
    // No retries: the recording is one response, and the route's own retry policy is the harness's, not pi-ai's.
    const options = { apiKey: 'test-key', maxRetries: 0 }
    const events =
      api === 'anthropic-messages'
        ? stream(oracleModel(model), context, options)
        : api === 'openai-responses'
          ? responsesStream(openAiModel(model), context, options)
          : googleStream(googleModel(model), context, options)
    const chunks: StreamChunk[] = []
    for await (const event of events) chunks.push(...chunksOf(event))
    return { chunks, fetchCalls }
  } finally {
    globalThis.fetch = realFetch
  }
}

/**
 * The oracle for Bedrock ConverseStream bodies (docs/protocol.md §9.4): pi-ai's Bedrock client is the AWS SDK over
 * Node's HTTP handler, not `fetch`, so the body is served from a loopback HTTP server (auth skipped, a fixed region).
 * The model id is `unknown`, as Chunkscope names it (a body does not carry one).
 */
export async function piAiBedrockChunks(
  body: Uint8Array,
): Promise<{ chunks: StreamChunk[]; requests: number }> {
  const { createServer } = await import('node:http')
  let requests = 0
  const server = createServer((request, response) => {
    requests += 1
    request.resume()
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' })
      response.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    const address = server.address()
    const port = typeof address === 'object' && address !== null ? address.port : 0
    const model: Model<'bedrock-converse-stream'> = {
      id: 'unknown',
      name: 'unknown',
      api: 'bedrock-converse-stream',
      provider: 'amazon-bedrock',
      baseUrl: `http://127.0.0.1:${port}`,
      reasoning: true,
      input: ['text'],
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      contextWindow: 200_000,
      maxTokens: 8192,
    }
    const context = { messages: [{ role: 'user' as const, content: 'hi', timestamp: 0 }] }
    const env = { AWS_BEDROCK_SKIP_AUTH: '1', AWS_BEDROCK_FORCE_HTTP1: '1', AWS_REGION: 'us-east-1' }
    const chunks: StreamChunk[] = []
    for await (const event of bedrockStream(model, context, { env, maxRetries: 0 }))
      chunks.push(...chunksOf(event))
    return { chunks, requests }
  } finally {
    server.close()
  }
}

function oracleModel(id: string): Model<'anthropic-messages'> {
  return {
    id,
    name: id,
    api: 'anthropic-messages',
    provider: 'anthropic',
    baseUrl: 'https://api.anthropic.com',
    reasoning: false,
    input: ['text'],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 200_000,
    maxTokens: 8192,
  }
}

function openAiModel(id: string): Model<'openai-responses'> {
  return {
    id,
    name: id,
    api: 'openai-responses',
    provider: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    reasoning: false,
    input: ['text'],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 400_000,
    maxTokens: 128_000,
  }
}

function googleModel(id: string): Model<'google-generative-ai'> {
  return {
    id,
    name: id,
    api: 'google-generative-ai',
    provider: 'google',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    reasoning: false,
    input: ['text'],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 1_048_576,
    maxTokens: 65_536,
  }
}

// Tool ids and names as seen at toolcall_start, per content index (the route reads them from the partial message).
const toolsSeen = new WeakMap<AssistantMessage, Map<number, { id: unknown; name: unknown }>>()

function chunksOf(event: AssistantMessageEvent): StreamChunk[] {
  switch (event.type) {
    case 'start':
      return []
    case 'text_start':
      return [{ type: 'block-start', index: event.contentIndex, blockType: 'text' }]
    case 'text_delta':
      return [{ type: 'text-delta', index: event.contentIndex, text: event.delta }]
    case 'text_end':
      return [{ type: 'block-end', index: event.contentIndex, block: { type: 'text', text: event.content } }]
    case 'thinking_start':
      return [{ type: 'block-start', index: event.contentIndex, blockType: 'reasoning' }]
    case 'thinking_delta':
      return [{ type: 'reasoning-delta', index: event.contentIndex, text: event.delta }]
    case 'thinking_end':
      return [
        { type: 'block-end', index: event.contentIndex, block: { type: 'reasoning', text: event.content } },
      ]
    case 'toolcall_start': {
      const block = event.partial.content[event.contentIndex]
      const seen = toolsSeen.get(event.partial) ?? new Map<number, { id: unknown; name: unknown }>()
      toolsSeen.set(event.partial, seen)
      seen.set(
        event.contentIndex,
        block?.type === 'toolCall' ? { id: block.id, name: block.name } : { id: '', name: '' },
      )
      return [{ type: 'block-start', index: event.contentIndex, blockType: 'tool-call' }]
    }
    case 'toolcall_delta': {
      const tool = toolsSeen.get(event.partial)?.get(event.contentIndex)
      const name = tool?.name
      return [
        {
          type: 'tool-call-delta',
          index: event.contentIndex,
          id: (tool?.id ?? '') as string,
          ...(typeof name === 'string' && name.length > 0 ? { name } : {}),
          argumentsDelta: event.delta,
        },
      ]
    }
    case 'toolcall_end':
      return [
        {
          type: 'block-end',
          index: event.contentIndex,
          block: {
            type: 'tool-call',
            id: event.toolCall.id,
            name: event.toolCall.name,
            arguments: JSON.stringify(event.toolCall.arguments),
          },
        },
      ]
    case 'done':
      return [
        { type: 'usage', usage: usageOf(event.message.usage) },
        { type: 'finish', reason: finishOf(event.message), replayState: replayOf(event.message) },
      ]
    case 'error':
      return [
        { type: 'usage', usage: usageOf(event.error.usage) },
        { type: 'finish', reason: finishOf(event.error) },
      ]
  }
}

function usageOf(usage: Usage): TokenUsage {
  return {
    inputTokens: usage.input,
    outputTokens: usage.output,
    ...(usage.cacheRead > 0 ? { cacheReadTokens: usage.cacheRead } : {}),
    ...(usage.cacheWrite > 0 ? { cacheWriteTokens: usage.cacheWrite } : {}),
  }
}

function finishOf(message: AssistantMessage): FinishReason {
  const harnessOverflow =
    message.stopReason === 'error' &&
    message.errorMessage !== undefined &&
    namesContextWindowExceeded(message.errorMessage)
  if (isContextOverflow(message) || harnessOverflow) {
    return {
      kind: 'error',
      failure: {
        message: message.errorMessage ?? `pi-ai detected context overflow for model "${message.model}"`,
        code: 'CONTEXT_WINDOW_EXCEEDED',
      },
    }
  }
  switch (message.stopReason) {
    case 'stop':
      return message.content.length === 0
        ? {
            kind: 'error',
            failure: {
              message: `model "${message.model}" returned a completed response with no content`,
              code: 'EMPTY_RESPONSE',
            },
          }
        : { kind: 'stop' }
    case 'length':
      return { kind: 'max-tokens' }
    case 'toolUse':
      return { kind: 'tool-calls' }
    case 'aborted':
      return {
        kind: 'aborted',
        failure: { message: message.errorMessage ?? 'pi-ai stream aborted', code: 'ABORTED' },
      }
    case 'error': {
      const text = message.errorMessage ?? 'pi-ai stream error'
      return { kind: 'error', failure: { message: text, code: piAiFailureCode(text) } }
    }
  }
}

function replayOf(message: AssistantMessage): { response: unknown; blocks: unknown[] } {
  return {
    response: {
      kind: 'pi-ai',
      version: 2,
      api: message.api,
      provider: message.provider,
      model: message.model,
      ...(message.responseModel === undefined ? {} : { responseModel: message.responseModel }),
      ...(message.responseId === undefined ? {} : { responseId: message.responseId }),
      stopReason: message.stopReason,
    },
    blocks: message.content.map((block) => {
      switch (block.type) {
        case 'text':
          return {
            type: 'text',
            ...(block.textSignature === undefined ? {} : { textSignature: block.textSignature }),
          }
        case 'thinking':
          return {
            type: 'reasoning',
            ...(block.thinkingSignature === undefined ? {} : { thinkingSignature: block.thinkingSignature }),
            ...(block.redacted === undefined ? {} : { redacted: block.redacted }),
          }
        case 'toolCall':
          return {
            type: 'tool-call',
            ...(block.thoughtSignature === undefined ? {} : { thoughtSignature: block.thoughtSignature }),
          }
      }
    }),
  }
}
