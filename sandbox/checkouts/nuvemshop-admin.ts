import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { strictRouter } from '../http/router.ts';
import type { NuvemshopStore } from './accounts.ts';
import {
  type CheckoutPlatforms,
  callableUrl,
  type NuvemshopCarrierRecord,
  type NuvemshopOption,
  objectOf,
} from './state.ts';

/**
 * The part of Nuvemshop's API that registers a shipping carrier (docs/checkout/nuvemshop.md cites its pages), at
 * `/nuvemshop/v1/<store id>/shipping_carriers…` with `Authentication: bearer <token>` and a `User-Agent`: carriers
 * (create, list, get, update, delete) and their options (create, list, delete). Errors in Nuvemshop's shape
 * `{code, message, description}`, field errors beside them on 422.
 */
export function nuvemshopAdminRoutes(platforms: CheckoutPlatforms): Router {
  const router = strictRouter();
  const json = express.json({ limit: 100_000, type: () => true });
  const base = '/nuvemshop/v1/:store/shipping_carriers';
  const auth = authenticateNuvemshop(platforms);

  router.post(base, auth, json, (req, res) => {
    const store = storeOf(res);
    const body = objectOf(req.body);
    const errors = carrierErrors(body, true);
    if (errors) return void invalid(res, errors);
    const now = platforms.timestamp();
    const carrier: NuvemshopCarrierRecord = {
      id: platforms.nextId(),
      name: String(body.name),
      callback_url: String(body.callback_url),
      types: String(body.types),
      active: body.active !== false,
      created_at: now,
      updated_at: now,
      options: [],
    };
    platforms.carriers.set(store.id, [...carriersOf(platforms, store), carrier]);
    res.status(201).json(carrierView(carrier));
  });
  router.get(base, auth, (_req, res) => {
    res.json(carriersOf(platforms, storeOf(res)).map(carrierView));
  });
  router.get(`${base}/:id`, auth, (req, res) => {
    const carrier = carrierOf(platforms, req, res);
    if (carrier) res.json(carrierView(carrier));
  });
  router.put(`${base}/:id`, auth, json, (req, res) => {
    const carrier = carrierOf(platforms, req, res);
    if (!carrier) return;
    const body = objectOf(req.body);
    const errors = carrierErrors(body, false);
    if (errors) return void invalid(res, errors);
    if (typeof body.name === 'string') carrier.name = body.name;
    if (typeof body.callback_url === 'string') carrier.callback_url = body.callback_url;
    if (typeof body.types === 'string') carrier.types = body.types;
    if (typeof body.active === 'boolean') carrier.active = body.active;
    carrier.updated_at = platforms.timestamp();
    res.json(carrierView(carrier));
  });
  router.delete(`${base}/:id`, auth, (req, res) => {
    const store = storeOf(res);
    const carrier = carrierOf(platforms, req, res);
    if (!carrier) return;
    platforms.carriers.set(
      store.id,
      carriersOf(platforms, store).filter((c) => c !== carrier),
    );
    res.json({});
  });

  router.post(`${base}/:id/options`, auth, json, (req, res) => {
    const carrier = carrierOf(platforms, req, res);
    if (!carrier) return;
    const body = objectOf(req.body);
    const errors: Record<string, string[]> = {};
    if (typeof body.code !== 'string' || body.code === '') errors.code = ["can't be blank"];
    else if (carrier.options.some((option) => option.code === body.code))
      errors.code = ['has already been taken'];
    if (typeof body.name !== 'string' || body.name === '') errors.name = ["can't be blank"];
    if (Object.keys(errors).length > 0) return void invalid(res, errors);
    const now = platforms.timestamp();
    const option: NuvemshopOption = {
      id: platforms.nextId(),
      code: String(body.code),
      name: String(body.name),
      additional_days: typeof body.additional_days === 'number' ? body.additional_days : 0,
      additional_cost: typeof body.additional_cost === 'number' ? body.additional_cost : 0,
      allow_free_shipping: body.allow_free_shipping === true,
      active: body.active !== false,
      created_at: now,
      updated_at: now,
    };
    carrier.options.push(option);
    res.status(201).json(option);
  });
  router.get(`${base}/:id/options`, auth, (req, res) => {
    const carrier = carrierOf(platforms, req, res);
    if (carrier) res.json(carrier.options);
  });
  router.delete(`${base}/:id/options/:option`, auth, (req, res) => {
    const carrier = carrierOf(platforms, req, res);
    if (!carrier) return;
    const kept = carrier.options.filter((option) => String(option.id) !== String(req.params.option));
    if (kept.length === carrier.options.length) return void fail(res, 404, 'Not Found', 'Option not found');
    carrier.options = kept;
    res.json({});
  });
  return router;
}

/**
 * The store, the token and its scope (`write` to change, `read` or `write` to read: the shipping endpoints by
 * default), and the `User-Agent` Nuvemshop requires on every call.
 */
export function authenticateNuvemshop(
  platforms: CheckoutPlatforms,
  scopes: { read: string; write: string } = { read: 'read_shipping', write: 'write_shipping' },
): RequestHandler {
  return (req, res, next) => {
    if (!req.get('user-agent'))
      return void fail(res, 400, 'Bad Request', 'Send a User-Agent header naming your app and a contact.');
    const token = /^bearer\s+(\S+)$/i.exec(req.get('authentication') ?? '')?.[1];
    const store = platforms.stores.get(String(req.params.store));
    const granted = store && token ? platforms.scopesOf('nuvemshop', store.id, token) : undefined;
    if (!store || !granted) return void fail(res, 401, 'Unauthorized', 'Invalid access token');
    const writing = req.method !== 'GET';
    const allowed = writing
      ? granted.includes(scopes.write)
      : granted.includes(scopes.read) || granted.includes(scopes.write);
    if (!allowed)
      return void fail(
        res,
        403,
        'Forbidden',
        `This access token does not have the ${writing ? scopes.write : scopes.read} scope.`,
      );
    if (writing && req.method !== 'DELETE' && !req.is('application/json'))
      return void fail(res, 415, 'Unsupported Media Type', 'Send Content-Type: application/json.');
    res.locals.store = store;
    next();
  };
}

export function storeOf(res: Response): NuvemshopStore {
  return res.locals.store;
}

function carriersOf(platforms: CheckoutPlatforms, store: NuvemshopStore): NuvemshopCarrierRecord[] {
  return platforms.carriers.get(store.id) ?? [];
}

function carrierOf(platforms: CheckoutPlatforms, req: Request, res: Response) {
  const carrier = carriersOf(platforms, storeOf(res)).find((c) => String(c.id) === String(req.params.id));
  if (!carrier) fail(res, 404, 'Not Found', 'Shipping carrier not found');
  return carrier;
}

function carrierView({ options: _options, ...carrier }: NuvemshopCarrierRecord) {
  return carrier;
}

/** The carrier's fields as the API takes them: a name, an https callback, ship and/or pickup. */
function carrierErrors(
  body: Record<string, unknown>,
  creating: boolean,
): Record<string, string[]> | undefined {
  const errors: Record<string, string[]> = {};
  if (creating || body.name !== undefined)
    if (typeof body.name !== 'string' || body.name === '') errors.name = ["can't be blank"];
  if (creating || body.callback_url !== undefined)
    if (!callableUrl(body.callback_url)) errors.callback_url = ['must be a valid HTTPS URL'];
  if (creating || body.types !== undefined) {
    const types = typeof body.types === 'string' ? body.types.split(',').map((t) => t.trim()) : [];
    if (types.length === 0 || !types.every((t) => t === 'ship' || t === 'pickup'))
      errors.types = ['must be ship, pickup or both, comma-separated'];
  }
  return Object.keys(errors).length > 0 ? errors : undefined;
}

export function fail(res: Response, code: number, message: string, description: string): void {
  res.status(code).json({ code, message, description });
}

export function invalid(res: Response, errors: Record<string, string[]>): void {
  res
    .status(422)
    .json({ code: 422, message: 'Unprocessable Entity', description: 'Validation error', ...errors });
}
