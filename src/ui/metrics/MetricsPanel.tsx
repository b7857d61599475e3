import { Panel } from '../layout/Panel'

/** Placeholder: the Metrics panel is being built. */
export function MetricsPanel() {
  return (
    <Panel title="Metrics" className="flex-1">
      <p className="p-2 text-xs text-slate-500">Metrics</p>
    </Panel>
  )
}
