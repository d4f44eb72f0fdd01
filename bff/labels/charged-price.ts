// What a label costs the store: the carrier's price, never a price a shopper's free-shipping rule made.

/**
 * A quote of parcels as the carrier charges them: no cart value, so no free-shipping rule of the store's (which
 * looks at what the shopper pays) turns a label's price into R$ 0,00. What a label costs the store is this price.
 */
export function chargedQuote(destinationCep: string, parcels: readonly { weightGrams: number }[]) {
  return {
    destinationCep,
    items: parcels.map((parcel, i) => ({
      name: `volume ${i + 1}`,
      quantity: 1,
      unitPriceBRL: 0,
      weightKg: Math.max(parcel.weightGrams, 1) / 1000,
    })),
  };
}

/** A rate's price as the carrier charges it: never a free-shipping price (a rate marked `free` has none to tell). */
export function chargedPrice(
  rate: { price: number; free?: boolean | undefined } | undefined,
): number | undefined {
  return rate === undefined || rate.free === true ? undefined : rate.price;
}
