import OpenAI from 'openai';
import type { ProviderConfig } from '../../core/config.js';
import { REPLY_FORMATS, type ProviderReply, type ReviewCall, type ReviewProvider } from './provider.js';

/**
 * OpenAI and every OpenAI-compatible server (Ollama, vLLM, LM Studio, …) through the official
 * client: `POST {baseUrl}/chat/completions` with a strict `json_schema` response format, as the
 * contract specifies. The client's own retries are off (we retry with our own backoff and lease)
 * and it reads nothing from the environment: key, base URL, organization and project are explicit.
 */
export function openAiCompatibleProvider(cfg: ProviderConfig, opts: { timeoutMs: number }): ReviewProvider {
  const client = new OpenAI({
    // Local servers need no key, but the client insists on one; it is sent only to cfg.baseUrl.
    apiKey: cfg.apiKey ?? 'no-key',
    baseURL: cfg.baseUrl,
    organization: null,
    project: null,
    maxRetries: 0,
    // Our own REVIEW_TIMEOUT_MS signal decides (and names) timeouts; the client's is a backstop.
    timeout: opts.timeoutMs + 1000,
  });

  return {
    name: cfg.name,
    async review(call: ReviewCall): Promise<ProviderReply> {
      const completion = await client.chat.completions.create(
        {
          model: call.model,
          messages: [
            { role: 'system', content: call.system },
            { role: 'user', content: call.user },
          ],
          response_format: {
            type: 'json_schema',
            json_schema: { name: REPLY_FORMATS[call.purpose ?? 'review'].schemaName, strict: true, schema: call.schema },
          },
        },
        { signal: call.signal, maxRetries: 0, timeout: opts.timeoutMs + 1000 },
      );
      const message = completion.choices?.[0]?.message;
      const usage = completion.usage;
      const tokens = { inputTokens: usage?.prompt_tokens ?? null, outputTokens: usage?.completion_tokens ?? null };
      if (message?.refusal) {
        // A refusal is not a score: the worker treats it as an invalid reply (retried, kept for audit).
        return { reply: null, raw: JSON.stringify({ refusal: message.refusal }), refusal: message.refusal, ...tokens };
      }
      const content = typeof message?.content === 'string' ? message.content : '';
      return { reply: content, raw: content, ...tokens };
    },
  };
}
