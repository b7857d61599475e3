/**
 * The one open passphrase request, between the code that opens a link (it awaits the answer) and the dialog that
 * asks (it renders the request). A tiny external store: `useSyncExternalStore(subscribePrompt, currentPrompt)`.
 */
export type PassphraseRequest = {
  /** Shown above the field after a refused attempt: "that passphrase is wrong…". */
  readonly problem: string | null
  readonly answer: (passphrase: string | null) => void
}

let current: PassphraseRequest | null = null
const listeners = new Set<() => void>()

function publish(next: PassphraseRequest | null): void {
  current = next
  for (const listener of listeners) listener()
}

/** Asks for a passphrase; resolves with it, or null when the user cancels. A newer request cancels an older one. */
export function askPassphrase(problem: string | null = null): Promise<string | null> {
  current?.answer(null)
  return new Promise((resolve) => {
    const request: PassphraseRequest = {
      problem,
      answer: (passphrase) => {
        if (current === request) publish(null)
        resolve(passphrase)
      },
    }
    publish(request)
  })
}

export function currentPrompt(): PassphraseRequest | null {
  return current
}

export function subscribePrompt(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
