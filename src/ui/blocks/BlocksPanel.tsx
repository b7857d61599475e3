import { Panel } from '../layout/Panel'

/** Placeholder: the Blocks panel is being built. */
export function BlocksPanel() {
  return (
    <Panel title="Blocks" className="flex-1">
      <p className="p-2 text-xs text-slate-500">Blocks</p>
    </Panel>
  )
}
