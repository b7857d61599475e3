import { useRef, useState } from 'react'
import { LengthMeter } from './LengthMeter'
import type { ShareLinkState } from './useShareLink'
import { useT } from '../i18n/useT'

type Props = { readonly link: ShareLinkState; readonly onDownload: () => void }

/** The link itself (select-all text field), its length against the limits, and "Copy link". */
export function LinkResult({ link, onDownload }: Props) {
  const t = useT()
  const field = useRef<HTMLTextAreaElement>(null)
  const [copied, setCopied] = useState<{ url: string; note: string } | null>(null)
  const url = link.kind === 'ready' ? link.url : ''
  const tooLong = url.length > 2 * 1024 * 1024

  const selectAll = () => {
    field.current?.focus()
    field.current?.select()
  }
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url)
      setCopied({ url, note: t('share.copied') })
    } catch {
      // No clipboard access (an insecure context, a denied permission): leave the link selected for Ctrl+C.
      selectAll()
      setCopied({ url, note: t('share.noClipboard') })
    }
  }

  return (
    <section aria-label={t('share.link')} aria-busy={link.kind === 'busy'} className="flex flex-col gap-1">
      <h3 className="text-xs font-semibold">{t('share.link')}</h3>
      {link.kind === 'failed' ? (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          The link could not be made: {link.error}
        </p>
      ) : (
        <textarea
          ref={field}
          readOnly
          aria-label={t('share.linkText')}
          rows={3}
          spellCheck={false}
          value={link.kind === 'busy' ? t('share.encoding') : tooLong ? `${url.slice(0, 20_000)}…` : url}
          onFocus={(event) => event.target.select()}
          className={`field h-auto w-full resize-none py-1 font-mono text-[11px] break-all ${link.kind === 'busy' ? 'text-slate-600' : ''}`}
        />
      )}
      {link.kind === 'ready' && link.warning !== null && (
        <p
          role="alert"
          aria-label={t('share.fidelity')}
          className="text-xs text-amber-700 dark:text-amber-300"
        >
          The opener would not see what you see: {link.warning}.
        </p>
      )}
      {link.kind === 'ready' && <LengthMeter chars={url.length} />}
      <div className="flex items-center gap-2">
        <button
          type="button"
          className="btn border-sky-600 bg-sky-600 text-white hover:bg-sky-700 disabled:hover:bg-sky-600 dark:border-sky-700 dark:bg-sky-700 dark:hover:bg-sky-600"
          disabled={link.kind !== 'ready' || tooLong}
          onClick={() => void copy()}
        >
          {t('share.copy')}
        </button>
        {link.kind === 'busy' && (
          <span className="text-xs text-slate-600 dark:text-slate-300">{t('share.encoding')}</span>
        )}
        {link.kind === 'ready' && link.encrypted && (
          <span className="text-xs text-slate-600 dark:text-slate-300">{t('share.encrypted')}</span>
        )}
        {copied !== null && copied.url === url && (
          <output className="text-xs text-slate-600 dark:text-slate-300">{copied.note}</output>
        )}
      </div>
      {tooLong && (
        <p role="alert" className="flex items-center gap-2 text-xs text-red-700 dark:text-red-300">
          {t('share.tooLong')}
          <button type="button" className="btn" onClick={onDownload}>
            {t('share.download')}
          </button>
        </p>
      )}
    </section>
  )
}
