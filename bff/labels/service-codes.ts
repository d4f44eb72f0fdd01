/**
 * From quote to label (spec 2.2): a quote names a service by its presentation `serviceId` ("correios-pac"), a label by
 * the carrier contract code ("03298"); `BFF_SERVICE_CODES` maps one to the other. With a map, the merchant's contract
 * has exactly its codes; without one, any 5-digit contract code goes on to the carrier, which decides.
 */
export type ServiceResolution =
  | { ok: true; serviceCode: string; serviceId: string | undefined }
  | { ok: false; message: string };

const CONTRACT_CODE = /^\d{5}$/;

export class ServiceCodes {
  private readonly byId: ReadonlyMap<string, string>;

  constructor(map: Record<string, string>) {
    this.byId = new Map(Object.entries(map));
  }

  /** A quote's rates, each with the contract code of its service (`serviceCode`) when the map knows it. */
  withCodes<Rate extends { serviceId: string }>(rates: readonly Rate[]) {
    return rates.map((rate) => {
      const serviceCode = this.byId.get(rate.serviceId);
      return serviceCode ? { ...rate, serviceCode } : rate;
    });
  }

  /** The contract code of a quote's service, when the map knows it. */
  codeOf(serviceId: string): string | undefined {
    return this.byId.get(serviceId);
  }

  /** The service a quote calls this contract code, when the map knows it. */
  idOf(serviceCode: string): string | undefined {
    for (const [id, code] of this.byId) if (code === serviceCode) return id;
    return undefined;
  }

  /** The contract code a label request names, through its `serviceId` or its `serviceCode`; or why not. */
  resolve(request: { serviceCode?: string | undefined; serviceId?: string | undefined }): ServiceResolution {
    const { serviceId } = request;
    const serviceCode = request.serviceCode?.trim();
    const mapped = serviceId === undefined ? undefined : this.byId.get(serviceId);
    if (serviceId !== undefined && mapped === undefined) {
      return {
        ok: false,
        message: `serviceId "${serviceId}" is not one of this store's services. ${this.known()}`,
      };
    }
    if (mapped !== undefined && serviceCode !== undefined && serviceCode !== mapped) {
      return {
        ok: false,
        message: `serviceId "${serviceId}" is contract code ${mapped}, not "${serviceCode}": give one of the two. ${this.known()}`,
      };
    }
    const code = mapped ?? serviceCode ?? '';
    if (!CONTRACT_CODE.test(code) || (this.byId.size > 0 && this.idOf(code) === undefined)) {
      return {
        ok: false,
        message: `"${code}" is not a contract product code of this store (a presentation name such as "PAC" or "SEDEX" is not one). ${this.known()}`,
      };
    }
    return { ok: true, serviceCode: code, serviceId: serviceId ?? this.idOf(code) };
  }

  private known(): string {
    if (this.byId.size === 0)
      return 'Give the carrier contract code (5 digits, e.g. "03298" for PAC, "03220" for SEDEX).';
    const list = [...this.byId].map(([id, code]) => `${id} → ${code}`).join(', ');
    return `Mapped services (serviceId → serviceCode): ${list}.`;
  }
}
