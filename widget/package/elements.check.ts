/**
 * Compile-time checks (`npm run check`): the published types of `elements.ts` say exactly what the shared schemas and
 * the calculator say, and name exactly what `custom-elements.ts` describes. Nothing here runs. Each line fails
 * typechecking when the two sides part: a field added, dropped, made optional or retyped on either side.
 */
import type * as z from 'zod/mini';
import type { QuoteItemSchema, Rate } from '../../shared/quote.ts';
import type { CalculatorEvents } from '../calculator/model.ts';
import type { CALCULATOR, TRACKING } from './custom-elements.ts';
import type {
  CartItem,
  ShippingCalculatorAttributes,
  ShippingCalculatorEventMap,
  ShippingErrorDetail,
  ShippingRate,
  ShippingRatesDetail,
  ShippingSelectDetail,
  ShippingTrackingAttributes,
} from './elements.ts';

/** The named keys of a type, its index signature aside. */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
/** Each assignable to the other, with the same named keys: the same shape for any caller. */
type Same<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? [KnownKeys<A>] extends [KnownKeys<B>]
      ? [KnownKeys<B>] extends [KnownKeys<A>]
        ? true
        : false
      : false
    : false
  : false;
type SameKeys<A extends PropertyKey, B extends PropertyKey> = [A] extends [B]
  ? [B] extends [A]
    ? true
    : false
  : false;
type Detail<E extends keyof CalculatorEvents> = Parameters<CalculatorEvents[E]>[0];

export const checks: [
  Same<ShippingRate, Rate>,
  Same<CartItem, z.input<typeof QuoteItemSchema>>,
  Same<ShippingRatesDetail, Detail<'rates'>>,
  Same<ShippingSelectDetail, Detail<'select'>>,
  Same<ShippingErrorDetail, Detail<'error'>>,
  SameKeys<keyof ShippingCalculatorAttributes, (typeof CALCULATOR)['attributes'][number]['name']>,
  SameKeys<keyof ShippingCalculatorEventMap, (typeof CALCULATOR)['events'][number]['name']>,
  SameKeys<keyof ShippingTrackingAttributes, (typeof TRACKING)['attributes'][number]['name']>,
] = [true, true, true, true, true, true, true, true];
