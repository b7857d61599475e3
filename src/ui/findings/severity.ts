import type { Severity } from '../../core/checks'

/** One icon and colour per severity, the same in Findings, the outline's counts and the diagnostics list. */
export const SEVERITY_ICON: Record<Severity, { readonly icon: string; readonly color: string }> = {
  error: { icon: '✕', color: 'text-red-600 dark:text-red-400' },
  warning: { icon: '⚠', color: 'text-amber-600 dark:text-amber-400' },
  info: { icon: 'ℹ', color: 'text-slate-600 dark:text-slate-300' },
}

export const SEVERITIES = ['error', 'warning', 'info'] as const satisfies readonly Severity[]
