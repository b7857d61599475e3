import type { ReactNode } from 'react'

type Props = {
  /** Accessible name of the region ("Timeline", "Blocks", …) and its visible title. */
  readonly title: string
  readonly actions?: ReactNode
  readonly children: ReactNode
  readonly className?: string
  /**
   * The content scrolls but may hold nothing focusable (text only): make the scroller itself a tab stop, so a
   * keyboard user can scroll it (WCAG 2.1.1; axe `scrollable-region-focusable`).
   */
  readonly focusableScroll?: boolean
  /** The content is on its way (a long stream's first show, the store's `showing`; a deferred render). */
  readonly busy?: boolean
}

/** A named region of the workbench: a small header with a title and optional actions, then scrolling content. */
export function Panel({
  title,
  actions,
  children,
  className = '',
  focusableScroll = false,
  busy = false,
}: Props) {
  return (
    <section
      aria-label={title}
      aria-busy={busy || undefined}
      className={`flex min-h-0 min-w-0 flex-col bg-white dark:bg-slate-900 ${className}`}
    >
      <header className="flex min-h-7 shrink-0 flex-wrap items-center gap-x-2 gap-y-0.5 border-b border-slate-200 px-2 text-[11px] font-semibold tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
        <h2>{title}</h2>
        <div className="ml-auto flex min-w-0 flex-wrap items-center gap-1 normal-case">{actions}</div>
      </header>
      {/* oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scroll container must take focus */}
      <div className="min-h-0 flex-1 overflow-auto" tabIndex={focusableScroll ? 0 : undefined}>
        {children}
      </div>
    </section>
  )
}
