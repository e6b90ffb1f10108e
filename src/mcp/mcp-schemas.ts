import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { Type } from 'typebox';

const RequestId = Type.Union([Type.String(), Type.Integer()]);

/**
 * The shapes of the MCP endpoint, for the route schema (and so the OpenAPI document). The body is
 * checked in full by the SDK's own JSON-RPC schema in the handler; this one is the outline.
 */
export const JsonRpcMessage = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Optional(RequestId),
    method: Type.Optional(Type.String({ description: 'e.g. initialize, tools/list, tools/call' })),
    params: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: true },
);

export const McpRequestBody = Type.Union([JsonRpcMessage, Type.Array(JsonRpcMessage, { minItems: 1, maxItems: MAX_BATCH_SIZE })], {
  description: 'a JSON-RPC 2.0 message, or a batch of them',
});

const JsonRpcResponse = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Optional(RequestId),
    result: Type.Optional(Type.Object({}, { additionalProperties: true })),
    error: Type.Optional(Type.Object({ code: Type.Integer(), message: Type.String(), data: Type.Optional(Type.Unknown()) })),
  },
  { additionalProperties: true },
);

export const McpResponseBody = Type.Union([JsonRpcResponse, Type.Array(JsonRpcResponse)], {
  description: 'the JSON-RPC response(s) to the request(s) sent',
});

/** 202: the POST held only notifications or responses; no body. */
export const McpAccepted = Type.Unsafe<void>({ description: 'Accepted: notifications or responses only; no body' });
