/// <reference lib="webworker" />
import type { ExperimentRequest } from '../experiments/experimentMessages'
import { runExperiment } from '../experiments/runExperiment'

// One experiment per worker: the page terminates it to cancel (a ddmin pass never yields to read a message).
const scope = self as unknown as DedicatedWorkerGlobalScope
scope.onmessage = (event: MessageEvent<ExperimentRequest>) =>
  runExperiment(event.data, (m) => scope.postMessage(m))
