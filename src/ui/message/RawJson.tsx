import { useState } from 'react'
import { useT } from '../i18n/useT'
import { EXPANDED_LIMIT } from '../blocks/TextTail'
import { ShownText } from '../ShownText'

/**
 * The assembled message as selectable JSON text, with a Copy button (which copies all of it). The page shows at most
 * the first {@link EXPANDED_LIMIT} characters, hidden characters as marks: a 60 MB text laid out whole sinks a tab.
 */
export function RawJson({ json }: { readonly json: string }) {
  const t = useT()
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null)
  const copy = () => {
    navigator.clipboard.writeText(json).then(
      () => setCopied('copied'),
      () => setCopied('failed'),
    )
  }
  return (
    <div className="relative">
      <div className="absolute top-1 right-1 flex items-center gap-1">
        {copied && (
          <output className="text-[11px] text-slate-600">
            {copied === 'copied' ? t('json.copied') : t('json.copyFailed')}
          </output>
        )}
        <button type="button" className="btn" onClick={copy}>
          {t('json.copy')}
        </button>
      </div>
      <pre
        aria-label={t('json.message')}
        className="overflow-auto rounded bg-slate-50 p-2 font-mono text-[12px] break-all whitespace-pre-wrap select-text dark:bg-slate-800"
      >
        <ShownText text={json.length > EXPANDED_LIMIT ? json.slice(0, EXPANDED_LIMIT) : json} />
        {json.length > EXPANDED_LIMIT && (
          <span className="text-slate-600">
            {' '}
            ⋯ {t('json.notShown', { count: json.length - EXPANDED_LIMIT })}
          </span>
        )}
      </pre>
    </div>
  )
}
