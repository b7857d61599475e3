import { Panel } from '../layout/Panel'

/** Placeholder: the Ignored panel is being built. */
export function IgnoredPanel() {
  return (
    <Panel title="Ignored" className="flex-1">
      <p className="p-2 text-xs text-slate-500">Ignored</p>
    </Panel>
  )
}
