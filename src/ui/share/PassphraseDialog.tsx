import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { useT } from '../i18n/useT'
import { currentPrompt, subscribePrompt } from '../../app/open/passphrasePrompt'

/** Asks for an encrypted link's passphrase; after a wrong one says so and asks again. */
export function PassphraseDialog() {
  const request = useSyncExternalStore(subscribePrompt, currentPrompt)
  const dialog = useRef<HTMLDialogElement>(null)
  const [value, setValue] = useState('')
  const t = useT()

  useEffect(() => {
    const element = dialog.current
    if (element === null) return
    if (request !== null && !element.open) element.showModal()
    if (request === null && element.open) element.close()
    setValue('')
  }, [request])

  return (
    <dialog
      ref={dialog}
      aria-label={t('passphrase.title')}
      onCancel={() => request?.answer(null)}
      onKeyDown={(event) => event.stopPropagation()}
      className="m-auto w-[28rem] max-w-[calc(100vw-2rem)] rounded-lg border border-slate-300 bg-white p-4 text-slate-900 shadow-xl backdrop:bg-black/40 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
    >
      <form
        method="dialog"
        className="flex flex-col gap-2 text-sm"
        onSubmit={(event) => {
          event.preventDefault()
          request?.answer(value)
        }}
      >
        <h2 className="font-semibold">{t('passphrase.heading')}</h2>
        <p className="text-xs text-slate-600 dark:text-slate-300">{t('passphrase.hint')}</p>
        {request?.problem != null && (
          <p role="alert" className="text-xs text-red-700 dark:text-red-300">
            {request.problem}
          </p>
        )}
        <input
          type="password"
          aria-label={t('passphrase.field')}
          autoComplete="off"
          // oxlint-disable-next-line jsx-a11y/no-autofocus -- the dialog exists to take this one field
          autoFocus
          className="field w-full"
          value={value}
          onChange={(event) => setValue(event.target.value)}
        />
        <div className="mt-1 flex justify-end gap-2">
          <button type="button" className="btn" onClick={() => request?.answer(null)}>
            {t('common.cancel')}
          </button>
          <button
            type="submit"
            className="btn border-sky-600 bg-sky-600 text-white hover:bg-sky-700 dark:border-sky-700 dark:bg-sky-700"
            disabled={value === ''}
          >
            {t('passphrase.open')}
          </button>
        </div>
      </form>
    </dialog>
  )
}
