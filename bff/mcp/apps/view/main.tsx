import { effect } from '@preact/signals-core';
import { type FunctionComponent, render } from 'preact';
import { Bridge } from './bridge.ts';
import { APP_MESSAGES, type AppMessages } from './messages.ts';
import { AppModel } from './model.ts';
import { ApprovalsView, LabelView, PreviewView, QuoteView, type ViewProps } from './views.tsx';

/** Each document names its app on `<html data-app>` (the build writes one document per app, vite.config.ts). */
const VIEWS = {
  quote: { view: QuoteView, title: (t: AppMessages) => t.quoteTitle },
  preview: {
    view: PreviewView,
    title: (t: AppMessages, plan?: boolean) => (plan ? t.planTitle : t.previewTitle),
  },
  label: { view: LabelView, title: (t: AppMessages) => t.labelTitle },
  approvals: { view: ApprovalsView, title: (t: AppMessages) => t.approvalsTitle },
} as const;

function Page({
  title,
  view: View,
  ...props
}: ViewProps & { title: string; view: FunctionComponent<ViewProps> }) {
  return (
    <main>
      <h1>{title}</h1>
      <View {...props} />
    </main>
  );
}

/**
 * Connects to the host over the app bridge (bridge.ts: `ui/initialize`, then the tool's input and result as
 * notifications) and renders the app again on every change of what the host said.
 */
async function start(): Promise<void> {
  const root = document.documentElement;
  const name = (root.dataset.app ?? 'quote') as keyof typeof VIEWS;
  const { view, title } = VIEWS[name] ?? VIEWS.quote;
  const model = new AppModel();
  const bridge = new Bridge(window.parent, {
    toolInput: (args) => model.toolInput(args),
    toolResult: (result) => model.toolResult(result),
    hostContext: (context) => model.hostContext(context),
  });
  const container = document.getElementById('app') as HTMLElement;
  effect(() => {
    const locale = model.locale.value;
    const t = APP_MESSAGES[locale];
    root.lang = locale;
    const theme = model.theme.value;
    if (theme) root.dataset.theme = theme;
    // The preview app also shows plan_shipment's packing plan (its result has volumes).
    const heading = title(t, Array.isArray(model.result.value?.structuredContent?.volumes));
    document.title = heading;
    render(
      <Page
        title={heading}
        view={view}
        t={t}
        locale={locale}
        input={model.input.value}
        result={model.result.value}
        host={bridge}
      />,
      container,
    );
  });
  await bridge.connect({ name: `frete-kit-${name}`, version: '1.0.0' });
}

void start();
