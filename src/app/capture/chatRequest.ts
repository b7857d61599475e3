// The Live panel's form → one streamed Chat Completions request (docs/protocol.md §9), or errors naming the fields.

import { isRecord } from '../../core/base/isRecord'

export type ChatRole = 'user' | 'assistant' | 'system'
export type ReasoningEffort = 'low' | 'medium' | 'high'

export type ChatForm = {
  /** `https://api.deepseek.com`, `http://127.0.0.1:8787/v1`, … (the request goes to `${base}/chat/completions`). */
  readonly baseUrl: string
  readonly model: string
  /** '' for none (a local endpoint or the proxy with its own key). */
  readonly apiKey: string
  readonly systemPrompt: string
  readonly messages: readonly { readonly role: ChatRole; readonly content: string }[]
  /** JSON text of an array of `{type:'function', function:{name, …}}`; '' for none. */
  readonly tools?: string
  /** '' / null for the endpoint's default. */
  readonly maxTokens: string | number | null
  readonly temperature: string | number | null
  readonly reasoningEffort: ReasoningEffort | null
}

/** The form's fields an error can name (`messages.2` for the third message, `tools.0` for the first tool). */
export type FormField =
  | 'baseUrl'
  | 'model'
  | 'apiKey'
  | 'systemPrompt'
  | 'messages'
  | `messages.${number}`
  | 'tools'
  | `tools.${number}`
  | 'maxTokens'
  | 'temperature'
  | 'reasoningEffort'

export type FormError = { readonly field: FormField; readonly message: string }

export type ChatRequest = {
  readonly ok: true
  /** POST here. */
  readonly url: string
  /** The base URL as normalised (no trailing slash): what the proxy hint names. */
  readonly baseUrl: string
  readonly model: string
  /** The JSON body (`stream: true`, `stream_options: {include_usage: true}`); never holds the key. */
  readonly body: Readonly<Record<string, unknown>>
  /** `content-type`, and `authorization: Bearer …` when a key was given: the only place the key goes. */
  readonly headers: Readonly<Record<string, string>>
}

export type ChatRequestResult = ChatRequest | { readonly ok: false; readonly errors: readonly FormError[] }

/**
 * Options some endpoints take without honouring, or not at all: asking for them is refused with this message rather
 * than sent and silently ignored (an option the endpoint cannot take is refused with an error, never
 * silently dropped). Matched on the base URL's host and the model. Endpoints not listed get what was asked; if they
 * refuse it, their 400 surfaces as INVALID_REQUEST with their own message.
 *
 * Sources: DeepSeek's API docs (reasoning model guide: temperature, top_p, presence_penalty and frequency_penalty are
 * accepted by `deepseek-reasoner` for compatibility but have no effect; the Chat Completions reference lists no
 * `reasoning_effort`).
 */
export const ENDPOINT_LIMITS: readonly {
  readonly host: string
  /** Every model when absent. */
  readonly model?: RegExp
  readonly field: 'temperature' | 'reasoningEffort' | 'maxTokens' | 'tools'
  readonly message: string
}[] = [
  {
    host: 'api.deepseek.com',
    model: /^deepseek-reasoner$/,
    field: 'temperature',
    message:
      'deepseek-reasoner accepts temperature but ignores it (DeepSeek API docs): clear the field, it would have no effect',
  },
  {
    host: 'api.deepseek.com',
    field: 'reasoningEffort',
    message:
      'reasoning_effort is not a DeepSeek API parameter: clear it (deepseek-reasoner always reasons; deepseek-chat does not)',
  },
]

const ROLES: ReadonlySet<string> = new Set(['user', 'assistant', 'system'])
const EFFORTS: ReadonlySet<string> = new Set(['low', 'medium', 'high'])

function blank(value: string | number | null | undefined): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '')
}

function asNumber(value: string | number): number {
  return typeof value === 'number' ? value : Number(value.trim())
}

/** `https://host/v1/` → `https://host/v1`; a base that already ends in `/chat/completions` loses that part. */
function basePath(url: URL): string {
  return url.pathname.replace(/\/+$/, '').replace(/\/chat\/completions$/, '')
}

/**
 * Builds the streamed Chat Completions request the Live panel sends, or says what is wrong, field by field, in plain
 * words. The key goes into `headers.authorization` only.
 *
 * @example
 * buildChatRequest({ baseUrl: 'https://api.deepseek.com', model: 'deepseek-chat', apiKey: 'sk-…', systemPrompt: '',
 *   messages: [{ role: 'user', content: 'Hi' }], maxTokens: '', temperature: 0.7, reasoningEffort: null })
 * // { ok: true, url: 'https://api.deepseek.com/chat/completions', body: { model, messages, stream: true, … }, … }
 */
export function buildChatRequest(form: ChatForm): ChatRequestResult {
  const errors: FormError[] = []
  const error = (field: FormField, message: string) => errors.push({ field, message })

  let base: URL | null = null
  const baseText = form.baseUrl.trim()
  if (baseText === '') error('baseUrl', 'Base URL is required, e.g. https://api.deepseek.com')
  else {
    try {
      base = new URL(baseText)
    } catch {
      error('baseUrl', 'Base URL is not a URL: write it in full, e.g. https://api.deepseek.com')
    }
    if (base !== null && base.protocol !== 'http:' && base.protocol !== 'https:') {
      error('baseUrl', `Base URL must start with http:// or https:// (not ${base.protocol})`)
      base = null
    }
    if (base !== null && (base.username !== '' || base.password !== '')) {
      error('baseUrl', 'Base URL must not hold credentials: put the key in the API key field')
      base = null
    }
  }

  const model = form.model.trim()
  if (model === '') error('model', 'Model is required, e.g. deepseek-chat')

  const key = form.apiKey.trim()
  // A header value cannot hold control characters; say so without repeating the key.
  if (/[^\x21-\x7e]/.test(key))
    error('apiKey', 'API key has a space, line break or non-ASCII character in it')

  const messages: { role: ChatRole; content: string }[] = []
  const system = form.systemPrompt
  if (system.trim() !== '') messages.push({ role: 'system', content: system })
  form.messages.forEach((message, i) => {
    if (!ROLES.has(message.role))
      error(`messages.${i}`, `Message ${i + 1} has an unknown role "${String(message.role)}"`)
    else if (message.content.trim() === '') error(`messages.${i}`, `Message ${i + 1} is empty`)
    else messages.push({ role: message.role, content: message.content })
  })
  if (form.messages.length === 0) error('messages', 'Add at least one message to send')

  let tools: unknown[] | null = null
  const toolsText = form.tools ?? ''
  if (toolsText.trim() !== '') {
    let parsed: unknown
    try {
      parsed = JSON.parse(toolsText)
    } catch (cause) {
      error('tools', `Tools are not valid JSON: ${cause instanceof Error ? cause.message : String(cause)}`)
    }
    if (parsed !== undefined) {
      if (!Array.isArray(parsed))
        error('tools', 'Tools must be a JSON array of {"type": "function", "function": {"name": …}}')
      else {
        parsed.forEach((tool: unknown, i) => {
          const problem = toolProblem(tool)
          if (problem !== null) error(`tools.${i}`, `Tool ${i + 1} ${problem}`)
        })
        if (parsed.length > 0) tools = parsed
      }
    }
  }

  let maxTokens: number | null = null
  if (!blank(form.maxTokens)) {
    const value = asNumber(form.maxTokens!)
    if (!Number.isSafeInteger(value) || value < 1) error('maxTokens', 'Max tokens must be a whole number ≥ 1')
    else maxTokens = value
  }

  let temperature: number | null = null
  if (!blank(form.temperature)) {
    const value = asNumber(form.temperature!)
    if (!Number.isFinite(value) || value < 0 || value > 2)
      error('temperature', 'Temperature must be a number from 0 to 2')
    else temperature = value
  }

  const effort = form.reasoningEffort
  if (effort !== null && !EFFORTS.has(effort))
    error('reasoningEffort', 'Reasoning effort must be low, medium or high')

  if (base !== null && model !== '') {
    const asked = {
      temperature: temperature !== null,
      reasoningEffort: effort !== null,
      maxTokens: maxTokens !== null,
      tools: tools !== null,
    }
    for (const limit of ENDPOINT_LIMITS) {
      if (limit.host !== base.hostname || !asked[limit.field]) continue
      if (limit.model !== undefined && !limit.model.test(model)) continue
      error(limit.field, limit.message)
    }
  }

  if (errors.length > 0 || base === null) return { ok: false, errors }
  const baseUrl = `${base.origin}${basePath(base)}`
  const url = `${baseUrl}/chat/completions${base.search}`
  const body: Record<string, unknown> = {
    model,
    messages,
    stream: true,
    stream_options: { include_usage: true },
    ...(maxTokens !== null ? { max_tokens: maxTokens } : {}),
    ...(temperature !== null ? { temperature } : {}),
    ...(effort !== null ? { reasoning_effort: effort } : {}),
    ...(tools !== null ? { tools } : {}),
  }
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    ...(key !== '' ? { authorization: `Bearer ${key}` } : {}),
  }
  return { ok: true, url, baseUrl, model, body, headers }
}

function toolProblem(tool: unknown): string | null {
  if (!isRecord(tool)) return 'is not an object'
  if (tool['type'] !== 'function') return 'must have "type": "function"'
  const fn = tool['function']
  if (!isRecord(fn)) return 'must have a "function" object'
  if (typeof fn['name'] !== 'string' || fn['name'].trim() === '') return 'must have a "function.name"'
  if (fn['parameters'] !== undefined && !isRecord(fn['parameters']))
    return 'has "function.parameters" that is not an object (a JSON Schema)'
  return null
}

/** The request's origin (`https://api.deepseek.com`), for messages. */
export function originOf(request: Pick<ChatRequest, 'url'>): string {
  try {
    return new URL(request.url).origin
  } catch {
    return request.url
  }
}
