/**
 * A mistake in how Baton was set up (keys, tools, options). Thrown at start-up, never at request
 * time; the message says what is wrong and how to fix it.
 */
export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}
