import { Panel } from '../layout/Panel'

/** Placeholder: the Outline panel is being built. */
export function Outline() {
  return (
    <Panel title="Outline" className="flex-1">
      <p className="p-2 text-xs text-slate-500">Outline</p>
    </Panel>
  )
}
