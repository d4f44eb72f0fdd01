/**
 * The entry point of `bff/admin/` (the admin login, its sessions and `/admin/agents`): what `bff/app.ts`
 * takes from the folder.
 */
export { adminRoutes } from './routes.ts';
export { AdminSessions } from './session.ts';
