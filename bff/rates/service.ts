import { chargeRates, laterPromise } from '../../shared/charged-rates.ts';
import {
  type DeliveryPromise,
  type DeliveryPromises,
  PlatformPromises,
  type PromiseInput,
  type StoreDays,
} from '../../shared/delivery-promise.ts';
import type { QuotedRate, RatesRequest, RatesResponse } from '../../shared/quote.ts';
import type { Rule, ShippingRules } from '../../shared/shipping-rules.ts';
import { type Logger, messageOf } from '../logger.ts';
import type { RestClient } from '../upstream/rest-client.ts';
import { MemoryQuoteStore, type QuoteStore } from './quote-cache.ts';
import {
  callerKey,
  isQuoteShareSpent,
  type QuoteCaller,
  QuoteShareSpent,
  type QuoteShares,
  UNNAMED_CALLER,
} from './quote-share.ts';

/** What the quote core answers: the platform's answer, each rate charged by the free-shipping rule and promised. */
export interface QuoteAnswer {
  rates: QuotedRate[];
  /**
   * The platform's own price of each rate by `serviceId` (BRL): what its label costs the merchant, beside the price the
   * shopper is charged (`rates`). Equal but for the merchant's shipping rules and free shipping.
   */
  platformPrices?: Record<string, number> | undefined;
  /** The version of the merchant's shipping rules the rates were charged by (0: none). */
  rulesVersion?: number | undefined;
  /** Why `rates` is empty (spec 4.1 rule 1: never free shipping). */
  reason?: string | undefined;
  /** For the merchant only (spec 4.1): where to fix the store's configuration. */
  actionUrl?: string | undefined;
}

/** A quote as the core sends it: only the CEP and the items (an agent's `requestId` does not change a quote). */
export type QuoteRequest = Pick<RatesRequest, 'destinationCep' | 'items'>;

/** A shopper's quote: the cart's SKUs too, where the surface knows them (the rules read them; the platform never). */
export type ShopperQuoteRequest = QuoteRequest & { skus?: readonly string[] | undefined };

/** Where the core reads the merchant's shipping rules in force (`ShippingRulesStore`, cached per instance). */
export interface RulesSource {
  current(): Promise<ShippingRules>;
}

export interface RatesServiceOptions {
  client: Pick<RestClient, 'rates'>;
  now?: () => number;
  /** How long an identical quote is answered from memory (default `QUOTE_CACHE_MS`), when no `store` is given. */
  ttlMs?: number;
  maxEntries?: number;
  /** Where answers are kept: memory by default, Redis for all instances (`Backends.quoteStore`). */
  store?: QuoteStore;
  /** Each caller's share of uncached quotes (`Backends.quoteShares`); none: no share is kept (tests of the core). */
  shares?: QuoteShares | undefined;
  /** Where each rate's promise comes from (default the platform's count with `storeDays`). */
  promises?: DeliveryPromises;
  /** The store's handling days and cut-off, for the platform's promise (and as the fallback of `promises`). */
  storeDays?: StoreDays;
  /** The instant a promise counts from (the BFF's work clock: the sandbox's under `BFF_TEST_CLOCK`); `now` by default. */
  promiseNow?: () => number;
  logger?: Logger | undefined;
  /** The merchant's shipping rules, for `shopperQuote` (none: every price as the platform quotes it). */
  rules?: RulesSource | undefined;
}

/** One quote on its way to the platform, and whose share paid for it. */
interface Flight {
  promise: Promise<RatesResponse>;
  payer: string;
}

/** A caller who joined another's quote and saw that caller's share refused asks again this many times on its own. */
const REJOINS = 2;

/**
 * The one quote core of the BFF (docs/checkout/quote-core.md): `/api/rates/verify`, MCP `get_shipping_rates`, the
 * label desk and previews, and every checkout adapter ask here, so each sees the same platform call, the same cache,
 * the same free-shipping rule and the same promise.
 *
 * - An identical quote (same CEP and items) within the cache's time is answered without the platform, and identical
 *   quotes asked at the same time are one platform call (single-flight, per instance). Failures are never cached.
 * - A quote that needs the platform first spends one of its caller's share (`QuoteShares`), else `QuoteShareSpent`
 *   is thrown and nothing is sent; answers from the cache or from a quote in flight cost nothing.
 * - Every rate is charged by the free-shipping rule (`chargeRates`, shared/charged-rates.ts; with the merchant's
 *   shipping rules for `shopperQuote`) and carries `promise` (`DeliveryPromises`).
 */
export class RatesService {
  private readonly client: Pick<RestClient, 'rates'>;
  private readonly now: () => number;
  private readonly promiseNow: () => number;
  private readonly store: QuoteStore;
  private readonly shares: QuoteShares | undefined;
  private readonly promises: DeliveryPromises;
  private readonly fallback: DeliveryPromises;
  private readonly logger: Logger | undefined;
  private readonly rules: RulesSource | undefined;
  private readonly flights = new Map<string, Flight>();

  constructor(options: RatesServiceOptions) {
    this.client = options.client;
    this.now = options.now ?? Date.now;
    this.promiseNow = options.promiseNow ?? this.now;
    this.store =
      options.store ??
      new MemoryQuoteStore({
        now: this.now,
        ...(options.ttlMs === undefined ? {} : { ttlMs: options.ttlMs }),
        ...(options.maxEntries === undefined ? {} : { maxEntries: options.maxEntries }),
      });
    this.shares = options.shares;
    this.fallback = new PlatformPromises(options.storeDays);
    this.promises = options.promises ?? this.fallback;
    this.logger = options.logger;
    this.rules = options.rules;
  }

  /**
   * The platform's quote for this CEP and cart, as every surface shows it. `caller` says whose share an uncached
   * quote spends (a caller left unnamed shares one share with every other unnamed one).
   * Throws `QuoteShareSpent` when the caller's share is spent, `UpstreamError` when the platform did not answer.
   */
  async quote(request: QuoteRequest, caller: QuoteCaller = UNNAMED_CALLER): Promise<QuoteAnswer> {
    return this.present(await this.platformAnswer(request, caller), request, NO_RULES_IN_FORCE);
  }

  /**
   * What the shopper is charged: the same quote, each rate charged by the merchant's shipping rules in force
   * (`shared/charged-rates.ts`), with the platform's price kept beside it. `/api/rates/verify`, every checkout and MCP
   * `get_shipping_rates` ask here; labels, the desk's quotes and the orders' prices ask `quote` (the platform's price).
   * A rules store that cannot be read fails the quote: a price without the merchant's rules is not the one shown.
   */
  async shopperQuote(
    request: ShopperQuoteRequest,
    caller: QuoteCaller = UNNAMED_CALLER,
    /** Rules to try instead of those in force (the desk's preview). */
    trying?: readonly Rule[],
  ): Promise<QuoteAnswer> {
    const rules = trying
      ? { version: 0, rules: trying }
      : this.rules
        ? await this.rules.current()
        : NO_RULES_IN_FORCE;
    return this.present(await this.platformAnswer(request, caller), request, rules);
  }

  private async platformAnswer(request: QuoteRequest, caller: QuoteCaller): Promise<RatesResponse> {
    const key = quoteKey(request);
    return (await this.store.get(key)) ?? (await this.fetch(key, request, caller));
  }

  /**
   * The answer of the identical quote in flight, or of a new one this caller pays for. A caller whose joined quote
   * was refused for its payer's spent share asks again on its own share (or joins an ask in flight it pays for itself,
   * never another caller's that may be refused too: refused callers queued in front must not starve it).
   */
  private async fetch(key: string, request: QuoteRequest, caller: QuoteCaller): Promise<RatesResponse> {
    const own = callerKey(caller);
    for (let rejoins = 0; ; rejoins++) {
      const existing = this.flights.get(key);
      const flight =
        existing && (rejoins === 0 || existing.payer === own) ? existing : this.start(key, request, caller);
      try {
        return await flight.promise;
      } catch (error) {
        // Another caller's spent share is not this caller's: it asks again, on its own share.
        const theirs = isQuoteShareSpent(error) && error.callerKey !== own;
        if (!theirs || rejoins >= REJOINS) throw error;
      }
    }
  }

  private start(key: string, request: QuoteRequest, caller: QuoteCaller): Flight {
    const promise = (async () => {
      if (this.shares) {
        const decision = await this.shares.take(caller);
        if (!decision.ok) throw new QuoteShareSpent(decision.retryAfterSeconds, caller);
      }
      const response = await this.client.rates({
        destinationCep: request.destinationCep,
        items: request.items,
      });
      await this.store.set(key, response);
      return response;
    })();
    const flight = { promise, payer: callerKey(caller) };
    this.flights.set(key, flight);
    // Only this flight's own entry: a caller asking again on its own share may have put its flight in its place.
    const landed = () => {
      if (this.flights.get(key) === flight) this.flights.delete(key);
    };
    promise.then(landed, landed);
    return flight;
  }

  /** The answer as a surface shows it: each rate charged (free shipping, the rules), with its promise. */
  private async present(
    response: RatesResponse,
    request: ShopperQuoteRequest,
    rules: { version: number; rules: readonly Rule[] },
  ): Promise<QuoteAnswer> {
    const at = this.promiseNow();
    const { destinationCep } = request;
    const charged = chargeRates(response.rates, request, rules.rules);
    for (const rate of response.rates) {
      if (rate.free !== true && !(rate.price > 0))
        this.logger?.warn(
          { serviceId: rate.serviceId, price: rate.price },
          'rates: a rate priced zero (or less) without free: true is not offered',
        );
    }
    const rates: QuotedRate[] = [];
    const platformPrices: Record<string, number> = {};
    for (const rate of charged) {
      const platform = response.rates.find((candidate) => candidate.serviceId === rate.serviceId) ?? rate;
      const extraDays = rate.deliveryDays - platform.deliveryDays;
      // The promise of the platform's count, then the rules' extra business days (the same days the calculator adds).
      const input = { destinationCep, serviceId: rate.serviceId, deliveryDays: platform.deliveryDays, at };
      rates.push({ ...rate, promise: laterPromise(await this.promiseFor(input), extraDays) });
      platformPrices[rate.serviceId] = platform.price;
    }
    return { ...response, rates, platformPrices, rulesVersion: rules.version };
  }

  /** The promise of one rate; the platform's own count when the promise port fails (a history store down). */
  private async promiseFor(input: PromiseInput): Promise<DeliveryPromise> {
    try {
      return await this.promises.promiseFor(input);
    } catch (error) {
      this.logger?.warn(
        { error: messageOf(error) },
        'rates: no promise from history; the platform count is used',
      );
      return this.fallback.promiseFor(input);
    }
  }
}

/** `quote`: the platform's price, the free-shipping rule alone. */
const NO_RULES_IN_FORCE = { version: 0, rules: [] } as const;

/** The cache and single-flight key: the CEP and every item as sent (name, quantity, unit price, unit weight). */
export function quoteKey(request: QuoteRequest): string {
  return JSON.stringify([
    request.destinationCep,
    request.items.map((item) => [item.name, item.quantity, item.unitPriceBRL, item.weightKg]),
  ]);
}
