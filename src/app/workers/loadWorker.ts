/// <reference lib="webworker" />
import type { LoadRequest, LoadResponse } from './loadMessages'
import { runLoad } from './loadJob'
import { loadSqlJsBrowser } from './sqlJsBrowser'

// A thin entry point over runLoad: read with progress, parse, post the result back in parts.
const scope = self as unknown as DedicatedWorkerGlobalScope

function post(message: LoadResponse, transfer: Transferable[] = []): void {
  scope.postMessage(message, transfer)
}

scope.onmessage = (event: MessageEvent<LoadRequest>) => runLoad(event.data, post, loadSqlJsBrowser)
