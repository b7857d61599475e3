import { useRef, useState } from 'react'
import type { ShareInput } from '../../formats/share/payload'
import { useChunkscope, useChunkscopeStore } from '../StoreContext'
import { ShareDialog } from './ShareDialog'
import { shareInputOf } from './shareTarget'
import { useT } from '../i18n/useT'

/**
 * "Share": a native modal <dialog> (focus trapped, Esc closes). What is shared is taken when it opens (the stream
 * and cursor on screen); its content only exists while open, so nothing is encoded in the background.
 */
export function ShareButton() {
  const t = useT()
  const store = useChunkscopeStore()
  const dialog = useRef<HTMLDialogElement>(null)
  const [input, setInput] = useState<ShareInput | null>(null)
  const hasStream = useChunkscope((s) => s.streamKey !== null)
  // A window link carries the state before its first chunk; sharing its chunks again would lose it.
  const windowLink = useChunkscope((s) => s.origin?.kind === 'link' && s.origin.window !== null)

  const open = () => {
    const next = shareInputOf(store.getState())
    if (next === null) return
    store.getState().actions.pause()
    setInput(next)
    dialog.current?.showModal()
  }

  return (
    <>
      <button
        type="button"
        className="btn"
        disabled={!hasStream || windowLink}
        onClick={open}
        title={windowLink ? t('share.windowLink') : t('share.title')}
      >
        {t('share.button')}
      </button>
      <dialog
        ref={dialog}
        aria-label={t('share.button')}
        onClose={() => setInput(null)}
        // The workbench's arrow/space keys must not move the cursor behind the dialog.
        onKeyDown={(event) => event.stopPropagation()}
        className="m-auto max-h-[calc(100vh-2rem)] w-[46rem] max-w-[calc(100vw-2rem)] overflow-auto rounded-lg border border-slate-300 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-black/40 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
      >
        {input !== null && <ShareDialog input={input} onClose={() => dialog.current?.close()} />}
      </dialog>
    </>
  )
}
