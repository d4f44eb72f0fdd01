import express, { Router } from 'express';
import * as z from 'zod/mini';
import { ApiError } from '../../shared/errors.ts';
import { requireAdminSession } from '../admin/gate.ts';
import { rememberReturn } from '../admin/return-to.ts';
import type { AdminSessions } from '../admin/session.ts';
import { pickLanguage } from '../desk/language.ts';
import { sendDeskPage } from '../desk/layout.ts';
import { LOG_MESSAGES, logRowOf, notificationsBody } from './log-page.ts';
import { DELIVERY_STATES, type Outbox } from './outbox.ts';

export interface NotificationRoutesDeps {
  /** The merchant's `/admin` sessions: the same login as `/admin/agents` and the desk. */
  sessions: AdminSessions;
  outbox: Outbox;
  /** Whether the public URL is https (the return-after-login cookie is then `Secure`). */
  secure?: boolean;
  /** Kicked after "send again", so the delivery goes now rather than at the next poll. */
  dispatch: () => void;
  now?: () => number;
}

/**
 * The desk's notification log, behind the `/admin` login (`BFF_ADMIN_PASSWORD`): every e-mail and webhook with its
 * state (sent, failed, retrying) and "send again". A JSON API under `/admin/api/` for the desk and for scripts —
 * `GET /admin/api/notifications?state=` and `POST /admin/api/notifications/<id>/resend` (cookie, `X-CSRF-Token` and
 * an `Origin` of our own, as every `/admin/api/` post) — and a server-rendered page, `/admin/notifications`.
 */
export function notificationRoutes(deps: NotificationRoutesDeps): Router {
  const { sessions, outbox } = deps;
  const now = deps.now ?? Date.now;
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '4kb' });
  const api = requireAdminSession(sessions);

  router.get('/admin/api/notifications', api, async (req, res) => {
    const state = z.optional(z.enum(DELIVERY_STATES)).safeParse(req.query.state || undefined);
    if (!state.success) throw new ApiError('invalid_body', `state: one of ${DELIVERY_STATES.join(', ')}`);
    res.json({ notifications: (await outbox.list({ state: state.data, limit: 200 })).map(logRowOf) });
  });

  router.post('/admin/api/notifications/:id/resend', api, async (req, res) => {
    const resent = await outbox.resend(String(req.params.id), now());
    if (!resent) throw new ApiError('not_found', 'No such notification.');
    deps.dispatch();
    res.json({ notification: logRowOf(resent) });
  });

  router.get('/admin/notifications', async (req, res) => {
    const current = await sessions.current(req);
    if (!current) {
      // Logging in comes back here (bff/admin/return-to.ts).
      rememberReturn(res, req.originalUrl, deps.secure ?? false);
      return res.redirect(303, '/admin/agents');
    }
    const lang = pickLanguage(req, res, deps.secure ?? false);
    const list = await outbox.list({ limit: 200 });
    sendDeskPage(res, 200, {
      lang,
      title: LOG_MESSAGES[lang].title,
      section: 'notifications',
      session: current,
      here: req.originalUrl,
      body: notificationsBody({ lang, csrf: current.csrf, rows: list.map(logRowOf) }),
    });
  });

  router.post(
    '/admin/notifications/:id/resend',
    form,
    requireAdminSession(sessions, 'form'),
    async (req, res) => {
      if (await outbox.resend(String(req.params.id), now())) deps.dispatch();
      res.redirect(303, '/admin/notifications');
    },
  );

  return router;
}
