import Anthropic from '@anthropic-ai/sdk';
import type { ProviderConfig } from '../../core/config.js';
import { REPLY_FORMATS, type ProviderReply, type ReviewCall, type ReviewProvider } from './provider.js';

/**
 * Anthropic through the official client. The reply shape is enforced by a forced tool call
 * (`tool_choice: {type: 'tool'}` with the reply schema as the tool's input schema): unlike
 * `output_config.format`, that works with every Claude model. The tool input is then checked like any
 * other reply. A text answer instead of the tool call is passed on as text (and is usually invalid).
 */
export function anthropicProvider(cfg: ProviderConfig, opts: { timeoutMs: number; maxTokens?: number }): ReviewProvider {
  const client = new Anthropic({
    apiKey: cfg.apiKey ?? 'no-key',
    authToken: null,
    baseURL: cfg.baseUrl,
    maxRetries: 0,
    // Our own REVIEW_TIMEOUT_MS signal decides (and names) timeouts; the client's is a backstop.
    timeout: opts.timeoutMs + 1000,
  });

  return {
    name: cfg.name,
    async review(call: ReviewCall): Promise<ProviderReply> {
      const format = REPLY_FORMATS[call.purpose ?? 'review'];
      const message = await client.messages.create(
        {
          model: call.model,
          max_tokens: opts.maxTokens ?? 2048,
          system: call.system,
          messages: [{ role: 'user', content: call.user }],
          tools: [
            {
              name: format.tool,
              description: format.description,
              input_schema: call.schema as Anthropic.Tool.InputSchema,
            },
          ],
          tool_choice: { type: 'tool', name: format.tool },
        },
        { signal: call.signal, maxRetries: 0, timeout: opts.timeoutMs + 1000 },
      );
      const tokens = { inputTokens: message.usage?.input_tokens ?? null, outputTokens: message.usage?.output_tokens ?? null };
      const tool = message.content.find((b) => b.type === 'tool_use' && b.name === format.tool);
      if (tool && tool.type === 'tool_use') return { reply: tool.input, raw: JSON.stringify(tool.input), ...tokens };
      const text = message.content
        .filter((b) => b.type === 'text')
        .map((b) => (b.type === 'text' ? b.text : ''))
        .join('');
      return { reply: text, raw: text, ...tokens };
    },
  };
}
