import { useEffect, useRef, useState } from 'react'
import { useT } from '../i18n/useT'
import { useSourceLoader } from './useSourceLoader'

/**
 * "Paste": a box to paste or type a stream into, plus the page-wide paste (Ctrl/Cmd+V anywhere that is not a text
 * field loads the clipboard text directly).
 */
export function PasteDialog() {
  const t = useT()
  const { openText } = useSourceLoader()
  const dialog = useRef<HTMLDialogElement>(null)
  const [text, setText] = useState('')

  useEffect(() => {
    const onPaste = (event: ClipboardEvent) => {
      const target = event.target
      if (target instanceof HTMLElement && target.closest('input, textarea, [contenteditable]') !== null)
        return
      const pasted = event.clipboardData?.getData('text/plain') ?? ''
      if (pasted.trim() === '') return
      event.preventDefault()
      void openText(pasted)
    }
    document.addEventListener('paste', onPaste)
    return () => document.removeEventListener('paste', onPaste)
  }, [openText])

  return (
    <>
      <button type="button" className="btn" onClick={() => dialog.current?.showModal()}>
        {t('toolbar.paste')}
      </button>
      <dialog
        ref={dialog}
        aria-label={t('paste.title')}
        className="m-auto w-[40rem] max-w-[90vw] rounded-lg border border-slate-300 bg-white p-4 text-slate-900 shadow-xl backdrop:bg-black/40 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
      >
        <form
          method="dialog"
          onSubmit={() => {
            if (text.trim() !== '') void openText(text)
            setText('')
          }}
        >
          <label className="mb-2 block text-sm font-semibold" htmlFor="paste-box">
            {t('paste.prompt')}
          </label>
          <textarea
            id="paste-box"
            aria-label={t('paste.box')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            className="field h-64 w-full font-mono"
            spellCheck={false}
          />
          <div className="mt-2 flex justify-end gap-2">
            <button type="button" className="btn" onClick={() => dialog.current?.close()}>
              {t('common.cancel')}
            </button>
            <button
              type="submit"
              className="btn border-sky-600 bg-sky-600 text-white hover:bg-sky-700 dark:bg-sky-700"
            >
              {t('paste.load')}
            </button>
          </div>
        </form>
      </dialog>
    </>
  )
}
