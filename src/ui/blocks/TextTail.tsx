import { useState } from 'react'
import { showTail } from './buildBlockCard'

type Props = {
  readonly text: string
  /** Newest characters to highlight (the latest delta), 0 for none. */
  readonly mark: number
  /** Classes of the highlight: the accent of the delta's chunk type. */
  readonly markClass?: string
  readonly mono?: boolean
  /** Characters shown before the head is folded away (the tail is where deltas land). */
  readonly limit?: number
}

const DEFAULT_LIMIT = 4000

/**
 * Streamed text as React text (never HTML), whitespace kept and long lines wrapped; a long text shows its tail
 * with a button for the rest, so a step re-renders O(limit) characters, not the whole block.
 */
export function TextTail({ text, mark, markClass = '', mono = false, limit = DEFAULT_LIMIT }: Props) {
  const [all, setAll] = useState(false)
  const shown = showTail(text, mark, limit, all)
  const font = mono ? 'font-mono text-[12px]' : 'text-[13px]'
  return (
    <div className={`${font} leading-snug break-words whitespace-pre-wrap`}>
      {shown.hidden > 0 && (
        <button type="button" className="btn mr-1 mb-0.5 align-baseline" onClick={() => setAll(true)}>
          ⋯ {shown.hidden.toLocaleString('en')} earlier chars
        </button>
      )}
      {all && text.length > limit && (
        <button type="button" className="btn mr-1 mb-0.5 align-baseline" onClick={() => setAll(false)}>
          fold
        </button>
      )}
      {shown.plain}
      {shown.marked !== '' && (
        <mark title="the latest delta" className={`rounded-sm text-inherit ${markClass}`}>
          {shown.marked}
        </mark>
      )}
      {text === '' && <span className="text-slate-400 italic dark:text-slate-500">(empty)</span>}
    </div>
  )
}
