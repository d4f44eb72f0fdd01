/**
 * The entry point of `bff/upstream/` (the calls to the platform: the REST client and the platform's MCP):
 * what `bff/app.ts` takes from the folder.
 */
export { PlatformMcp } from './platform-mcp.ts';
export { createRestClient, type RestClient, type RestClientOptions } from './rest-client.ts';
