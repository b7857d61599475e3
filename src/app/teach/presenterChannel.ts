/**
 * The presenter's notes window: a second window of the same origin (`?notes`) that follows the first over a
 * BroadcastChannel. The presenting window posts what the notes show; the notes window asks for it when it opens and
 * can step the presenting window. Text only: the notes window loads no stream of its own.
 */
export const PRESENTER_CHANNEL = 'chunkscope-presenter'

/** The query parameter that turns a page into the notes window (`/?notes`). */
export const NOTES_PARAM = 'notes'

export type NotesState = {
  readonly v: 1
  readonly title: string
  readonly k: number
  readonly total: number
  /** The lesson's narration of the chunk just applied, or null. */
  readonly said: string | null
  /** What the assembler did, in the workbench's words. */
  readonly did: string
  /** The chunk about to be applied. */
  readonly next: {
    readonly seq: number
    readonly summary: string
    readonly said: string | null
    /** What it will do (the predict question's answer): the presenter sees it, the class does not. */
    readonly answer: string
  } | null
  readonly questions: readonly { readonly prompt: string; readonly answer: string | null }[]
}

export type PresenterMessage =
  | { readonly type: 'state'; readonly state: NotesState }
  | { readonly type: 'hello' }
  | { readonly type: 'step'; readonly delta: number }

export type PresenterChannel = { post(message: PresenterMessage): void; close(): void }

/** Opens the channel; null where the browser has no BroadcastChannel (the notes window then says so). */
export function openPresenterChannel(
  onMessage: (message: PresenterMessage) => void,
): PresenterChannel | null {
  if (typeof BroadcastChannel === 'undefined') return null
  const channel = new BroadcastChannel(PRESENTER_CHANNEL)
  channel.onmessage = (event: MessageEvent<unknown>) => {
    const data = event.data
    if (typeof data === 'object' && data !== null && 'type' in data) onMessage(data as PresenterMessage)
  }
  return {
    post: (message) => channel.postMessage(message),
    close: () => channel.close(),
  }
}

/** Whether this page was opened as the notes window. */
export function isNotesWindow(search: string): boolean {
  return new URLSearchParams(search).has(NOTES_PARAM)
}
