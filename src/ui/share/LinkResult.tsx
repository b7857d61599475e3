import { useRef, useState } from 'react'
import { LengthMeter } from './LengthMeter'
import type { ShareLinkState } from './useShareLink'

type Props = { readonly link: ShareLinkState; readonly onDownload: () => void }

/** The link itself (select-all text field), its length against the limits, and "Copy link". */
export function LinkResult({ link, onDownload }: Props) {
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
      setCopied({ url, note: 'Copied to the clipboard' })
    } catch {
      // No clipboard access (an insecure context, a denied permission): leave the link selected for Ctrl+C.
      selectAll()
      setCopied({ url, note: 'The clipboard is not available here: the link is selected, press Ctrl+C' })
    }
  }

  return (
    <section aria-label="Link" aria-busy={link.kind === 'busy'} className="flex flex-col gap-1">
      <h3 className="text-xs font-semibold">Link</h3>
      {link.kind === 'failed' ? (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          The link could not be made: {link.error}
        </p>
      ) : (
        <textarea
          ref={field}
          readOnly
          aria-label="Link text"
          rows={3}
          spellCheck={false}
          value={link.kind === 'busy' ? 'Encoding…' : tooLong ? `${url.slice(0, 20_000)}…` : url}
          onFocus={(event) => event.target.select()}
          className={`field h-auto w-full resize-none py-1 font-mono text-[11px] break-all ${link.kind === 'busy' ? 'text-slate-600' : ''}`}
        />
      )}
      {link.kind === 'ready' && link.warning !== null && (
        <p role="alert" aria-label="Link fidelity" className="text-xs text-amber-700 dark:text-amber-300">
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
          Copy link
        </button>
        {link.kind === 'busy' && (
          <span className="text-xs text-slate-600 dark:text-slate-300">Encoding…</span>
        )}
        {link.kind === 'ready' && link.encrypted && (
          <span className="text-xs text-slate-600 dark:text-slate-300">
            encrypted: opening it asks for the passphrase
          </span>
        )}
        {copied !== null && copied.url === url && (
          <output className="text-xs text-slate-600 dark:text-slate-300">{copied.note}</output>
        )}
      </div>
      {tooLong && (
        <p role="alert" className="flex items-center gap-2 text-xs text-red-700 dark:text-red-300">
          This link is longer than browsers accept (2 MiB). Pick a smaller option below, or share the file.
          <button type="button" className="btn" onClick={onDownload}>
            Download file
          </button>
        </p>
      )}
    </section>
  )
}
