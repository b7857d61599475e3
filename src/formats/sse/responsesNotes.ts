/**
 * The wording of what the OpenAI Responses translator read but the harness's pi-ai route keeps no chunk of
 * (docs/protocol.md §9.2). Each becomes one diagnostic per kind, never one per event.
 */

/** The built-in (server-side) tools' output items, and what each is. */
export const BUILT_IN_ITEMS: Readonly<Record<string, string>> = {
  web_search_call: 'the built-in web search tool',
  file_search_call: 'the built-in file search tool',
  code_interpreter_call: 'the built-in code interpreter',
  image_generation_call: 'the built-in image generation tool',
  mcp_call: 'a call to a remote MCP server',
  mcp_list_tools: "a remote MCP server's tool list",
  mcp_approval_request: 'an MCP approval request',
  local_shell_call: 'the built-in local shell tool',
  shell_call: 'the built-in shell tool',
  shell_call_output: "the built-in shell tool's output",
  apply_patch_call: 'the built-in apply_patch tool',
  apply_patch_call_output: "the built-in apply_patch tool's output",
  computer_call: 'the built-in computer-use tool',
  tool_search_call: 'a tool search',
  compaction: 'a compaction item',
}

/** `skipped 2 output items … : web_search_call ×1 (the built-in web search tool), mcp_call ×1 (…)`. */
export function describeItems(skipped: ReadonlyMap<string, number>): string {
  const total = [...skipped.values()].reduce((sum, count) => sum + count, 0)
  const kinds = [...skipped]
    .map(([type, count]) => `${type} ×${count}${BUILT_IN_ITEMS[type] ? ` (${BUILT_IN_ITEMS[type]})` : ''}`)
    .join(', ')
  return `skipped ${total} output item${total === 1 ? '' : 's'} that pi-ai keeps no block for (only reasoning, message, function_call and custom_tool_call items become blocks): ${kinds}`
}

/** Events pi-ai skips that carry nothing new: lifecycle events and the `.done` repeats of streamed text. */
const QUIET = new Set([
  'response.in_progress',
  'response.queued',
  'response.content_part.added',
  'response.content_part.done',
  'response.output_text.done',
  'response.refusal.done',
  'response.reasoning_summary_part.added',
  'response.reasoning_summary_text.done',
  'response.reasoning_text.done',
])

/**
 * What to say of an event type pi-ai reads nothing from: null for the quiet ones; a built-in tool's progress events
 * grouped by tool (`response.web_search_call.searching` → web_search_call); anything else by its own type.
 */
export function unreadEventNote(type: string): { key: string; message: string } | null {
  if (QUIET.has(type)) return null
  // `response.shell_call_command.delta`, `response.code_interpreter_call_code.delta`: the item type leads the name.
  const segment = /^response\.([a-z_]+)\./.exec(type)?.[1] ?? ''
  const family = Object.keys(BUILT_IN_ITEMS)
    .filter((item) => segment.startsWith(item))
    .sort((a, b) => b.length - a.length)[0]
  if (family !== undefined)
    return {
      key: family,
      message: `response.${family}.* events: progress of ${BUILT_IN_ITEMS[family]}; pi-ai keeps nothing of them`,
    }
  if (type === 'response.output_text.annotation.added')
    return { key: type, message: 'output_text annotations (citations): pi-ai keeps nothing of them' }
  return { key: type, message: `event type ${JSON.stringify(type)}: pi-ai keeps nothing of it` }
}
