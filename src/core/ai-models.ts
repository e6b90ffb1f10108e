import type { AiConfig } from './config.js';

/** `provider/model`, split at the first '/': the model part may itself contain slashes. */
export function splitModelId(id: string): { provider: string; model: string } {
  const i = id.indexOf('/');
  if (i <= 0) return { provider: id.toLowerCase(), model: '' };
  // Provider names are case-insensitive (they come from environment variable names).
  return { provider: id.slice(0, i).toLowerCase(), model: id.slice(i + 1) };
}

/** The environment variable an operator sets to configure `provider`: quoted in failure reasons. */
export function configHint(provider: string): string {
  switch (provider) {
    case 'openai':
      return 'set OPENAI_API_KEY (and OPENAI_BASE_URL for an OpenAI-compatible server)';
    case 'anthropic':
      return 'set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL if needed)';
    case 'ollama':
      return 'set OLLAMA_BASE_URL';
    default:
      return `set AI_PROVIDER_${provider.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_BASE_URL`;
  }
}

/** A model id that names each well-known provider, for examples (any model the provider serves works). */
const EXAMPLE_MODEL: Record<string, string> = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-sonnet-4-5',
  ollama: 'llama3.1',
};

/** One provider this server can run models of, as GET /api/v1/models shows it. */
export interface ConfiguredProvider {
  name: string;
  kind: 'openai-compatible' | 'anthropic';
  /** How an event names a model of it: `<name>/<model>`. */
  model_pattern: string;
  example: string;
}

/**
 * What models this server can run: every configured provider (sorted by name). A provider serves
 * whatever models it has; the server does not list them, so a model id is checked by its provider part.
 */
export function configuredProviders(ai: AiConfig): ConfiguredProvider[] {
  return Object.values(ai.providers)
    .map((p) => ({ name: p.name, kind: p.kind, model_pattern: `${p.name}/<model>`, example: `${p.name}/${EXAMPLE_MODEL[p.name] ?? 'model-name'}` }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The models of `models` whose provider this server has no configuration for, in their order. */
export function unconfiguredModels(ai: AiConfig, models: readonly string[]): string[] {
  return models.filter((m) => !Object.hasOwn(ai.providers, splitModelId(m).provider));
}
