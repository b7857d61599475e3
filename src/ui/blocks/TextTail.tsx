import { useState } from 'react'
import { ShownText } from '../ShownText'
import { showTail } from './buildBlockCard'
import { useT } from '../i18n/useT'

type Props = {
  readonly text: string
  /** Newest characters to highlight (the latest delta), 0 for none. */
  readonly mark: number
  /** Classes of the highlight: the accent of the delta's chunk type. */
  readonly markClass?: string
  readonly mono?: boolean
  /** Characters shown before the head is folded away (the tail is where deltas land). */
  readonly limit?: number
  readonly className?: string
}

const DEFAULT_LIMIT = 4000
/**
 * The most "show all" puts on the page: laying out tens of millions of characters takes a tab to gigabytes (a
 * 60 MB string did), so past this the head stays folded with a note saying so.
 */
export const EXPANDED_LIMIT = 200_000

/**
 * Streamed text as React text (never HTML), whitespace kept and long lines wrapped, bidirectional and zero-width
 * characters shown as marks; a long text shows its tail with a button for more, so a step re-renders O(limit)
 * characters, not the whole block.
 */
export function TextTail({
  text,
  mark,
  markClass = '',
  mono = false,
  limit = DEFAULT_LIMIT,
  className = '',
}: Props) {
  const t = useT()
  const [all, setAll] = useState(false)
  const shown = showTail(text, mark, all ? Math.max(limit, EXPANDED_LIMIT) : limit, false)
  const font = mono ? 'font-mono text-[12px]' : 'text-[13px]'
  return (
    <div className={`${font} leading-snug break-words whitespace-pre-wrap ${className}`}>
      {shown.hidden > 0 && !all && (
        <button type="button" className="btn mr-1 mb-0.5 align-baseline" onClick={() => setAll(true)}>
          {t('text.earlier', { count: shown.hidden.toLocaleString('en') })}
        </button>
      )}
      {shown.hidden > 0 && all && (
        <span className="mr-1 text-[11px] text-slate-600 dark:text-slate-300">
          {t('text.earlierHidden', {
            count: shown.hidden.toLocaleString('en'),
            limit: EXPANDED_LIMIT.toLocaleString('en'),
          })}
        </span>
      )}
      {all && text.length > limit && (
        <button type="button" className="btn mr-1 mb-0.5 align-baseline" onClick={() => setAll(false)}>
          {t('text.fold')}
        </button>
      )}
      <ShownText text={shown.plain} />
      {shown.marked !== '' && (
        <mark title={t('text.latest')} className={`rounded-sm text-inherit ${markClass}`}>
          <ShownText text={shown.marked} />
        </mark>
      )}
      {text === '' && <span className="text-slate-600 italic dark:text-slate-300">{t('text.empty')}</span>}
    </div>
  )
}
