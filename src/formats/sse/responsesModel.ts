import { responsesModelOf } from './responses'
import { scanSdkSse } from './sdkSse'

/**
 * The model id the route would name for a Responses body: the first `response.created`'s `response.model` (the
 * harness names its configured model, which a body does not carry; the wire's is the closest), else `unknown`.
 * Read as the translator reads it: in body order, up to `[DONE]`.
 */
export function responsesModelOfBody(body: string): string {
  let model: string | null = null
  let stop = false
  scanSdkSse(body, (event) => {
    if (stop) return
    if (event.data.startsWith('[DONE]')) {
      stop = true
      return
    }
    try {
      const parsed = JSON.parse(event.data) as unknown
      if ((parsed as { type?: unknown } | null)?.type !== 'response.created') return
      stop = true
      model = responsesModelOf(parsed)
    } catch {
      // Not JSON: the translator fails here, before any model.
      stop = true
    }
  })
  return model ?? 'unknown'
}
