import { randomBytes } from 'node:crypto';
import type {
  CreateMerchantInput,
  CreateMerchantOutput,
  GetMerchantStatusOutput,
  MerchantStatus,
  MerchantSteps,
} from '../../shared/merchant.ts';
import type { Store, StoreRegistry } from '../stores/stores.ts';
import type { OnboardingChoices } from './form.ts';

/** How many merchants one partner may create between resets (bounds memory against a runaway loop). */
export const MERCHANTS_PER_PARTNER = 200;

/** A merchant a partner created (spec 4.4.6). Its store exists once onboarding is done. */
export interface ProvisionedMerchant extends CreateMerchantInput {
  merchantId: string;
  partnerId: string;
  /** The capability in the onboarding URL: whoever holds it finishes the configuration. */
  token: string;
  status: MerchantStatus;
  steps: MerchantSteps;
  publicKey: string | undefined;
}

const NO_STEPS: MerchantSteps = {
  originCep: false,
  services: false,
  plan: false,
  carrierContract: false,
  labels: false,
};

/** The keys of a new store: shown to the merchant once, on the page that finished the onboarding. */
export interface NewStoreKeys {
  publicKey: string;
  secretKey: string;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** Partner provisioning: creates merchants, follows their onboarding, turns a finished one into a store. */
export class MerchantDesk {
  private readonly registry: StoreRegistry;
  private readonly byId = new Map<string, ProvisionedMerchant>();
  private readonly byToken = new Map<string, ProvisionedMerchant>();

  constructor(registry: StoreRegistry) {
    this.registry = registry;
  }

  /**
   * `create_merchant`: a pending merchant and its onboarding URL under `baseUrl` (the sandbox's public origin);
   * the same externalId from the same partner answers the same merchant.
   */
  create(partnerId: string, input: CreateMerchantInput, baseUrl: string): CreateMerchantOutput {
    const own = [...this.byId.values()].filter((merchant) => merchant.partnerId === partnerId);
    const existing =
      input.externalId === undefined ? undefined : own.find((m) => m.externalId === input.externalId);
    if (existing) return this.created(existing, baseUrl);
    if (own.length >= MERCHANTS_PER_PARTNER) return { reason: 'merchant_limit_reached' };
    let merchantId: string;
    do merchantId = `loja-${hex(5)}`;
    while (this.byId.has(merchantId) || this.registry.byId(merchantId));
    const merchant: ProvisionedMerchant = {
      ...input,
      merchantId,
      partnerId,
      token: randomBytes(24).toString('base64url'),
      status: 'pending',
      steps: { ...NO_STEPS },
      publicKey: undefined,
    };
    this.byId.set(merchantId, merchant);
    this.byToken.set(merchant.token, merchant);
    return this.created(merchant, baseUrl);
  }

  /** `get_merchant_status`: only for the partner that created the merchant; never a secret key. */
  status(partnerId: string, merchantId: string): GetMerchantStatusOutput {
    const merchant = this.byId.get(merchantId);
    if (!merchant || merchant.partnerId !== partnerId) return { merchantId, reason: 'merchant_not_found' };
    return {
      merchantId,
      status: merchant.status,
      steps: { ...merchant.steps },
      ...(merchant.publicKey ? { publicKey: merchant.publicKey } : {}),
    };
  }

  /** The merchant whose onboarding page this token opens. */
  withToken(token: string): ProvisionedMerchant | undefined {
    return this.byToken.get(token);
  }

  /**
   * Finishes the onboarding with the merchant's choices (already validated): the store exists from now on and the
   * keys are returned this once. Undefined when it was finished before (the keys are never shown again).
   */
  complete(merchant: ProvisionedMerchant, choices: OnboardingChoices): NewStoreKeys | undefined {
    if (merchant.status === 'active') return undefined;
    const keys = { publicKey: `pk_test_${hex(12)}`, secretKey: `mk_test_${hex(16)}` };
    const store: Store = {
      id: merchant.merchantId,
      name: merchant.name,
      originCep: choices.originCep,
      planActive: choices.plan,
      services: choices.services,
      freeShipping: null,
      carrierAuth: 'ok',
      ownContract: choices.ownContract,
      labelIntegration: choices.labels,
      linkedApps: [],
      deleted: false,
      keys: [
        { key: keys.publicKey, merchantPermission: false },
        { key: keys.secretKey, merchantPermission: true },
      ],
    };
    this.registry.add(store);
    merchant.status = 'active';
    merchant.publicKey = keys.publicKey;
    merchant.steps = {
      originCep: true,
      services: choices.services.length > 0,
      plan: choices.plan,
      carrierContract: choices.ownContract,
      labels: choices.labels,
    };
    return keys;
  }

  /** `POST /_sandbox/reset`: created merchants and their stores are gone. */
  reset(): void {
    this.byId.clear();
    this.byToken.clear();
    this.registry.removeProvisioned();
  }

  private created(merchant: ProvisionedMerchant, baseUrl: string): CreateMerchantOutput {
    return {
      merchantId: merchant.merchantId,
      status: merchant.status,
      onboardingUrl: `${baseUrl}/onboarding/${merchant.token}`,
    };
  }
}
