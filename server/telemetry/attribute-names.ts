/**
 * The attribute names Baton puts on spans and metrics. Where OpenTelemetry's semantic conventions
 * name a thing (MCP, GenAI, JSON-RPC, errors, network), their name is used; Baton's own are under
 * `baton.`. None carries a value a client or user typed: names, counts, sizes and outcomes only
 * (docs/observability.md, "What is never recorded").
 */
export const ATTR = {
  // OpenTelemetry semantic conventions (gen-ai/mcp, registry).
  method: 'mcp.method.name',
  protocolVersion: 'mcp.protocol.version',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  operationName: 'gen_ai.operation.name',
  requestId: 'jsonrpc.request.id',
  errorType: 'error.type',
  rpcStatusCode: 'rpc.response.status_code',
  networkTransport: 'network.transport',
  networkProtocol: 'network.protocol.name',
  // Baton's own.
  targetName: 'baton.target.name',
  instanceId: 'baton.instance.id',
  resultType: 'baton.result_type',
  round: 'baton.round',
  roundMode: 'baton.round.mode',
  roundOutcome: 'baton.round.outcome',
  questionKeys: 'baton.round.question_keys',
  questionCount: 'baton.round.questions',
  waitingStates: 'baton.round.waiting_states',
  stateSize: 'baton.request_state.size',
  flowOutcome: 'baton.flow.outcome',
  refusalReason: 'baton.refusal.reason',
  taskId: 'baton.task.id',
  taskStatus: 'baton.task.status',
  linkKind: 'baton.link',
} as const;
