import type { RedisConnection } from '../backends/redis.ts';
import type { SharedCatalogStore } from './platform-mcp.ts';

/** The platform's tool catalog, shared so one instance's look serves all for its TTL (and a failure clears it for all). */
export class RedisCatalog implements SharedCatalogStore {
  private readonly connection: RedisConnection;

  constructor(connection: RedisConnection) {
    this.connection = connection;
  }

  private get key(): string {
    return `${this.connection.prefix}:catalog`;
  }

  async get(): Promise<string[] | undefined> {
    if (!this.connection.ready) return undefined;
    const text = await this.connection.commands.get(this.key).catch(() => null);
    if (!text) return undefined;
    try {
      const tools: unknown = JSON.parse(text);
      return Array.isArray(tools) && tools.every((tool) => typeof tool === 'string') ? tools : undefined;
    } catch {
      return undefined;
    }
  }

  async set(tools: string[], ttlMs: number): Promise<void> {
    if (!this.connection.ready) return;
    await this.connection.commands.set(this.key, JSON.stringify(tools), 'PX', ttlMs).catch(() => undefined);
  }

  async clear(): Promise<void> {
    if (!this.connection.ready) return;
    await this.connection.commands.del(this.key).catch(() => undefined);
  }
}
