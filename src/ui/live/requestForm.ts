import type { ChatForm } from '../../app/capture/chatRequest'

/** The retry select: the harness's default policy, fewer retries, or none. */
export type RetrySetting = 'default' | '3' | '1' | 'off'

const SLOT = 'chunkscope.liveRequest'

export const DEFAULT_FORM: ChatForm = {
  baseUrl: 'https://api.deepseek.com',
  model: 'deepseek-chat',
  apiKey: '',
  systemPrompt: 'You are a helpful assistant.',
  messages: [{ role: 'user', content: 'What is the weather in Paris? Answer in one sentence.' }],
  tools: '',
  maxTokens: '',
  temperature: '',
  reasoningEffort: null,
}

/** The last form sent from this browser (never its key), or the default one. */
export function loadForm(storage: Pick<Storage, 'getItem'> | null = safeStorage()): ChatForm {
  try {
    const saved = JSON.parse(storage?.getItem(SLOT) ?? 'null') as Partial<ChatForm> | null
    if (saved === null || typeof saved !== 'object') return DEFAULT_FORM
    return { ...DEFAULT_FORM, ...saved, apiKey: '' }
  } catch {
    return DEFAULT_FORM
  }
}

/** Keeps the form for next time, without the key (the key has its own rules: src/app/capture/keyMemory.ts). */
export function saveForm(form: ChatForm, storage: Pick<Storage, 'setItem'> | null = safeStorage()): void {
  const { apiKey: _key, ...rest } = form
  try {
    storage?.setItem(SLOT, JSON.stringify(rest))
  } catch {
    // storage blocked or full: the form is simply not remembered
  }
}

function safeStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null
  }
}
