import { useEffect, useState } from 'react'
import { buildSharePayload, type ShareInput } from '../../formats/share/payload'
import { encodeShareLink } from '../../formats/share/shareLink'
import { scopeOf, type ShareChoice } from './buildShareView'
import { checkShare } from './checkShare'
import { describeFidelity } from './shareFidelity'
import { useLang } from '../i18n/useT'
import { withLangParam } from '../../app/i18n/lang'

export type ShareLinkState =
  | { readonly kind: 'busy' }
  | {
      readonly kind: 'ready'
      readonly url: string
      readonly encrypted: boolean
      /** What the opener would not see as the sender does ("this link would lose: recorded-mismatch"), or null. */
      readonly warning: string | null
    }
  | { readonly kind: 'failed'; readonly error: string }

/** Lets the busy state paint before a big payload is built (building is synchronous). */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/**
 * The link for one choice, computed on demand (only the chosen option, never all of them) with a busy state
 * between. Typing a passphrase waits for a pause: each key would otherwise run PBKDF2 again.
 */
export function useShareLink(input: ShareInput, choice: ShareChoice, passphrase: string): ShareLinkState {
  // Each result remembers what it was made from: a newer choice reads as busy at once, before its timer fires.
  const [result, setResult] = useState<{ made: readonly unknown[]; state: ShareLinkState } | null>(null)
  // The link opens in the sender's language (`?lang=`); an English one leaves it to the opener's browser.
  const lang = useLang()
  const langQuery = lang === 'en' ? '' : withLangParam('', lang)
  const made = [input, choice, passphrase, langQuery]
  useEffect(() => {
    let current = true
    const made = [input, choice, passphrase, langQuery]
    const setState = (state: ShareLinkState) => setResult({ made, state })
    const timer = window.setTimeout(async () => {
      await nextTask()
      if (!current) return
      try {
        const payload = buildSharePayload(input, scopeOf(choice, input))
        const fragment = await encodeShareLink(payload, passphrase === '' ? {} : { passphrase })
        const url = `${window.location.origin}${window.location.pathname}${langQuery}#${fragment}`
        const report = checkShare(input, payload)
        const warning = report === null ? null : describeFidelity(report)
        if (current) setState({ kind: 'ready', url, encrypted: passphrase !== '', warning })
      } catch (error) {
        if (current)
          setState({ kind: 'failed', error: error instanceof Error ? error.message : String(error) })
      }
    }, 200)
    return () => {
      current = false
      window.clearTimeout(timer)
    }
  }, [input, choice, passphrase, langQuery])
  const fresh = result !== null && result.made.every((value, i) => value === made[i])
  return fresh ? result.state : { kind: 'busy' }
}
