import { Panel } from '../layout/Panel'

/** Placeholder: the Findings panel is being built. */
export function FindingsPanel() {
  return (
    <Panel title="Findings" className="flex-1">
      <p className="p-2 text-xs text-slate-500">Findings</p>
    </Panel>
  )
}
