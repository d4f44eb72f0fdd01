import { effect } from '@preact/signals-core';
import { render } from 'preact';
import { adoptStyles, uid } from '../common/settings.ts';
import { trackingMessagesFor } from './messages.ts';
import { createTrackingModel, type TrackingModel } from './model.ts';
import { TRACKING_CSS } from './styles.ts';
import { Tracking } from './Tracking.tsx';

/**
 * `<shipping-tracking>`: looks codes up through the BFF (`POST {bff-url}/api/tracking`). `bff-url` (or the script's
 * `data-bff-url`) defaults to the page's own origin; `codes` or the page's `?codes=` prefill and look up at once.
 * `data-theme="light" | "dark"` is read by its styles alone.
 */
export class ShippingTracking extends HTMLElement {
  /** The loading script's `data-*` settings, given once to `defineTracking`. */
  static settings: DOMStringMap = {};
  static observedAttributes = ['lang'];
  private model: TrackingModel | undefined;
  /** Stops re-rendering on the model's changes (the current `renderView` effect). */
  private stopRendering: (() => void) | undefined;
  private readonly root: ShadowRoot;
  private readonly elementId = uid('st');

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    adoptStyles(this.root, TRACKING_CSS);
  }

  connectedCallback(): void {
    const settings = ShippingTracking.settings;
    this.model = createTrackingModel({ bffUrl: this.getAttribute('bff-url') ?? settings.bffUrl ?? '' });
    const prefill = this.getAttribute('codes') ?? new URLSearchParams(window.location.search).get('codes');
    this.renderView();
    if (prefill) {
      this.model.setText(prefill);
      void this.model.track();
    }
  }

  disconnectedCallback(): void {
    this.stopRendering?.();
    this.stopRendering = undefined;
    render(null, this.root);
    this.model = undefined;
  }

  attributeChangedCallback(): void {
    this.renderView();
  }

  /**
   * Renders the view inside an effect of @preact/signals-core: the signals the render reads are its dependencies, so
   * a change to any of them renders again. The whole tree is a few nodes; without @preact/signals' per-component
   * bindings (and preact/hooks, which they need) the bundle is ~1.5 KB gzip smaller (issue 28's 15 KB budget).
   */
  private renderView(): void {
    const model = this.model;
    if (!model) return;
    const t = trackingMessagesFor(this.getAttribute('lang') ?? ShippingTracking.settings.lang);
    this.stopRendering?.();
    this.stopRendering = effect(() => {
      render(<Tracking model={model} t={t} id={this.elementId} />, this.root);
    });
  }
}

/** Registers `<shipping-tracking>` with the loading script's settings (once: a second script tag changes nothing). */
export function defineTracking(settings: DOMStringMap): void {
  if (customElements.get('shipping-tracking')) return;
  ShippingTracking.settings = settings;
  customElements.define('shipping-tracking', ShippingTracking);
}
