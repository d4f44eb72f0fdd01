/** Calls per store and route (`POST /v1/rates`, `POST /v1/tracking`, `mcp:<tool>`), for tests and benchmarks. */
export class CallStats {
  private stores: Record<string, Record<string, number>> = {};

  count(storeId: string, route: string): void {
    const routes = this.stores[storeId] ?? {};
    routes[route] = (routes[route] ?? 0) + 1;
    this.stores[storeId] = routes;
  }

  snapshot(): { stores: Record<string, Record<string, number>> } {
    return { stores: structuredClone(this.stores) };
  }

  reset(): void {
    this.stores = {};
  }
}
