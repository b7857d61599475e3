import { useState } from 'react'
import { useT } from '../i18n/useT'
import { ChangedMarks } from './ChangedMarks'
import { ChaosTab } from './ChaosTab'
import { CompareTab } from './CompareTab'
import { MinimizeTab } from './MinimizeTab'
import { useWhatIfContext } from './WhatIfContext'
import { WhatIfTab } from './WhatIfTab'

const TABS = [
  ['what-if', 'experiments.whatIf'],
  ['minimize', 'experiments.minimize'],
  ['chaos', 'experiments.chaos'],
  ['compare', 'experiments.compare'],
] as const
type Tab = (typeof TABS)[number][0]

/**
 * The experiments on the selected stream (docs/protocol.md §13): what-if edits, the minimizer, chaos re-chunking,
 * and comparing two streams. Folded to its header until opened; the what-if session lives here, so it survives
 * switching tabs.
 */
export function ExperimentsPanel() {
  const t = useT()
  const [open, setOpen] = useState(false)
  const [tab, setTab] = useState<Tab>('what-if')
  const whatIf = useWhatIfContext()
  if (whatIf === null) throw new Error('ExperimentsPanel needs a WhatIfProvider above it')
  const edits = whatIf.session?.history.done.length ?? 0
  return (
    <section
      aria-label={t('experiments.title')}
      style={{ height: open ? '55%' : undefined }}
      className="flex shrink-0 flex-col border-t border-slate-200 dark:border-slate-700"
    >
      {whatIf.session?.edited && <ChangedMarks positions={whatIf.session.edited.changed} />}
      <header className="flex h-7 shrink-0 items-center gap-2 px-2 text-[11px] font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
        <h2>
          <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} className="uppercase">
            {open ? '▾' : '▸'} {t('experiments.title')}
          </button>
        </h2>
        {edits > 0 && (
          <span className="rounded bg-amber-100 px-1 text-amber-900 normal-case dark:bg-amber-900/60 dark:text-amber-100">
            {t('experiments.edited', { count: edits })}
          </span>
        )}
        {open && (
          <div role="tablist" aria-label={t('experiments.tabs')} className="ml-auto flex gap-1 normal-case">
            {TABS.map(([id, label]) => (
              <button
                key={id}
                type="button"
                role="tab"
                aria-selected={tab === id}
                onClick={() => setTab(id)}
                className={`rounded px-1.5 ${tab === id ? 'bg-slate-200 text-slate-900 dark:bg-slate-700 dark:text-slate-100' : ''}`}
              >
                {t(label)}
              </button>
            ))}
          </div>
        )}
      </header>
      {open && (
        <div
          role="tabpanel"
          aria-label={t(TABS.find(([id]) => id === tab)![1])}
          className="min-h-0 flex-1 overflow-auto"
        >
          {tab === 'what-if' && <WhatIfTab whatIf={whatIf} />}
          {tab === 'minimize' && <MinimizeTab />}
          {tab === 'chaos' && <ChaosTab />}
          {tab === 'compare' && <CompareTab />}
        </div>
      )}
    </section>
  )
}
