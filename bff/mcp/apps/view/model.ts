import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { batch, signal } from '@preact/signals-core';
import { type Locale, localeOf } from '../../../../shared/locale.ts';

/** The host as the views use it: the app bridge, behind a port (main.ts connects ext-apps' `App` to it). */
export interface AppHost {
  /** `tools/call` through the host, to this server (the app-only tools included). */
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** `ui/download-file` when the host offers it; undefined when it does not. */
  download?: ((name: string, mimeType: string, base64: string) => Promise<void>) | undefined;
}

/** What the host told the view (SEP-1865, "Data Passing" and "Host Context"). */
export class AppModel {
  /** The arguments of the tool call the view shows (`ui/notifications/tool-input`). */
  readonly input = signal<Record<string, unknown> | undefined>(undefined);
  /** Its result (`ui/notifications/tool-result`). */
  readonly result = signal<CallToolResult | undefined>(undefined);
  readonly locale = signal<Locale>('pt-BR');
  readonly theme = signal<'light' | 'dark' | undefined>(undefined);

  toolInput(args: Record<string, unknown> | undefined): void {
    this.input.value = args ?? {};
  }

  toolResult(result: CallToolResult): void {
    this.result.value = result;
  }

  hostContext(context: { locale?: string | undefined; theme?: string | undefined } | undefined): void {
    batch(() => {
      const locale = localeOf(context?.locale);
      if (locale) this.locale.value = locale;
      if (context?.theme === 'light' || context?.theme === 'dark') this.theme.value = context.theme;
    });
  }
}
