import { useState } from 'react'
import { useT } from '../i18n/useT'
import { Timeline } from '../timeline/Timeline'
import { AdapterView } from './AdapterView'
import { useSelectedAttempt } from './useSelectedAttempt'

type Tab = 'Timeline' | 'Adapter'
const TABS: readonly Tab[] = ['Timeline', 'Adapter']

/**
 * The Timeline, or for a stream translated from a wire capture (SSE, HAR, …) a choice between the Timeline and
 * the Adapter view. Without wire data this is the Timeline alone, unchanged.
 */
export function TimelineOrAdapter() {
  const attempt = useSelectedAttempt()
  const t = useT()
  const [tab, setTab] = useState<Tab>('Timeline')
  if (attempt?.wire === undefined) return <Timeline />
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div
        role="tablist"
        aria-label={t('adapter.tabs')}
        className="flex h-6 shrink-0 items-end gap-0.5 border-b border-slate-200 bg-slate-50 px-1 dark:border-slate-700 dark:bg-slate-800/60"
      >
        {TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            onClick={() => setTab(name)}
            className={`rounded-t px-2 py-0.5 text-[11px] font-medium ${
              tab === name
                ? 'border border-b-0 border-slate-200 bg-white text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100'
                : 'text-slate-600 hover:text-slate-800 dark:text-slate-300 dark:hover:text-slate-200'
            }`}
          >
            {t(name === 'Timeline' ? 'timeline.title' : 'adapter.title')}
          </button>
        ))}
      </div>
      {tab === 'Timeline' ? <Timeline /> : <AdapterView attempt={attempt} trace={attempt.wire} />}
    </div>
  )
}
