/**
 * A service as the merchant reads it on the desk: "PAC" for `correios-pac`, "SEDEX 10" for `correios-sedex-10` (the
 * carrier's prefix dropped, the rest upper-cased); any other id as given. The quote's own label is not at hand where
 * a ledger row or a lane names the service, so the desk writes the id this way everywhere instead of the raw id.
 */
export function serviceName(serviceId: string): string {
  const match = /^correios-(.+)$/.exec(serviceId);
  return match?.[1] ? match[1].replace(/-/g, ' ').toUpperCase() : serviceId;
}
