import { Panel } from '../layout/Panel'

/** Placeholder: the Lanes panel is being built. */
export function Lanes() {
  return (
    <Panel title="Lanes" className="flex-1">
      <p className="p-2 text-xs text-slate-500">Lanes</p>
    </Panel>
  )
}
