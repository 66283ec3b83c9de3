import type { Context, Hono } from 'hono'
import type { Permission } from '../access/permissions.ts'
import type { Principal } from '../access/service.ts'

/** What the /api middleware puts on every request's context (http/app.ts), typed for every route file. */
export interface AppEnv {
  Variables: {
    /** Whether authentication is on (configuration); off only in tests that say why. */
    authOn: boolean
    /** The person or device making the request, resolved from its bearer credential. */
    principal: Principal
    /** The permission the matched route needs (access/permissions.ts). */
    permission: Permission
  }
}
export type AppContext = Context<AppEnv>
export type App = Hono<AppEnv>

/** A path parameter; Hono types it as optional once middleware sits in front of the handler. */
export const param = (c: AppContext, name: string): string => c.req.param(name) ?? ''
