import { Panel } from '../layout/Panel'

/** Placeholder: the Timeline panel is being built. */
export function Timeline() {
  return (
    <Panel title="Timeline" className="flex-1">
      <p className="p-2 text-xs text-slate-500">Timeline</p>
    </Panel>
  )
}
