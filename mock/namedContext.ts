import type { FastifyPluginAsync } from 'fastify';

/**
 * Names a plugin that keeps its own fastify context (fastify-plugin would name it too, but share
 * its context with the parent's). Fastify names every plugin it registers; for an unnamed one it
 * looks through every loaded module for the one exporting it, at each registration, so every
 * mock built in a process with many modules (a test run) paid for the search five times.
 */
export function namedContext<Plugin extends FastifyPluginAsync<never>>(name: string, plugin: Plugin): Plugin {
  return Object.assign(plugin, { [Symbol.for('fastify.display-name')]: name });
}
