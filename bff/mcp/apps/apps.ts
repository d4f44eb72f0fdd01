import {
  EXTENSION_ID,
  getUiCapability,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
} from '@modelcontextprotocol/ext-apps/server';
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/mini';
import type { AgentLabelInput } from '../../../shared/labels/agent-label.ts';
import { approvalRow } from '../../desk/api.ts';
import type { LabelService } from '../../labels/service.ts';
import { MERCHANT } from '../../oauth/oauth.ts';
import type { ApprovalStore } from '../../policies/approval-store.ts';
import type { Caller } from '../../policies/policies.ts';
import type { AgentIdentity } from '../agent-auth.ts';
import { isInitialize } from '../json-exchange.ts';
import { answer, refused } from '../tool-result.ts';
import { CLICK, LIST, labelAnswer } from '../tools.ts';
import { APPS, type AppName, registerAppResources } from './resources.ts';
import { AppSeals } from './seals.ts';

/** The `_meta` keys of tool results that only the app reads (never in the text or structured content). */
export const META = {
  /** The right to issue the pending label this result shows (`app_issue_label`). */
  grant: 'frete-kit/grant',
  /** What preview_label says of the pending label, for the preview app. */
  preview: 'frete-kit/preview',
  /** Per approval id, the right to decide it (`app_decide_approval`). */
  grants: 'frete-kit/grants',
  /** On preview_label under `issue: "app"`: the button issues, by the person's click. */
  byClick: 'frete-kit/byClick',
} as const;

/** Which app renders each tool's result (its `_meta.ui.resourceUri`). */
const LINKS: Record<string, AppName> = {
  get_shipping_rates: 'quote',
  preview_label: 'preview',
  plan_shipment: 'preview',
  generate_label: 'label',
  get_label_pdf: 'label',
};

/** A tool's `_meta` for an app: the spec's `ui` object, and the flat key older hosts read (as ext-apps writes it). */
function uiMeta(app: AppName, visibility?: ('model' | 'app')[]): Record<string, unknown> {
  const { uri } = APPS[app];
  return { ui: { resourceUri: uri, ...(visibility ? { visibility } : {}) }, [RESOURCE_URI_META_KEY]: uri };
}

/** Whether an initialize request's client declares MCP Apps with the HTML profile (SEP-1865, capability negotiation). */
export function declaresApps(body: unknown): boolean {
  if (Array.isArray(body) || !isInitialize(body)) return false;
  const capabilities = body.params.capabilities as Parameters<typeof getUiCapability>[0];
  return getUiCapability(capabilities)?.mimeTypes?.includes(RESOURCE_MIME_TYPE) === true;
}

const GrantSchema = z.string().check(z.minLength(20), z.maxLength(400));
const IssueInputSchema = z.strictObject({
  grant: GrantSchema.check(z.describe('The grant the label preview app received with the pending label.')),
});
const DecideInputSchema = z.strictObject({
  grant: GrantSchema.check(z.describe('The grant the approvals app received with this approval.')),
  decision: z.enum(['approve', 'reject']),
});
const ApprovalsOutputSchema = z.looseObject({
  approvals: z.array(
    z.looseObject({
      approvalId: z.string(),
      state: z.string(),
      request: z.unknown(),
      issuedBy: z.string(),
      quotedPrice: z.optional(z.number()),
      declaredValue: z.number(),
      createdAt: z.string(),
      expiresAt: z.string(),
    }),
  ),
});

export interface McpAppsOptions {
  labels: LabelService;
  approvals: ApprovalStore;
  /** The platform secret key every instance holds: the seals' key is derived from it. */
  secretKey: string;
  /** Where the built documents are (default `dist/apps/`). */
  appsDir?: string | undefined;
}

/**
 * MCP Apps on the BFF's MCP server (docs/agents/apps.md). A connection whose client declared the
 * `io.modelcontextprotocol/ui` extension when it initialized gets, on every request: the `ui://` resources, the
 * label tools linked to them (`_meta.ui.resourceUri`), and the app-only tools; any other connection gets none of it —
 * the server is built exactly as before.
 *
 * Spending stays a person's act: under the policy `issue: "app"`, `generate_label` only asks (a pending approval,
 * bff/labels/service.ts) and hands the preview app a grant for that one approval; the app's button calls
 * `app_issue_label` with it, which approves and issues through the same ledger, plausibility and limits — once, since
 * the approval changes state once whatever the clicks, reloads or replays.
 */
export class McpApps {
  private readonly seals: AppSeals;
  private readonly options: McpAppsOptions;

  constructor(options: McpAppsOptions) {
    this.options = options;
    this.seals = new AppSeals(options.secretKey);
  }

  /**
   * Whether this `/mcp` request is of a connection that negotiated MCP Apps: its initialize declares the extension
   * (then `session` is the `Mcp-Session-Id` to answer with), or it carries the session id this BFF gave `holder`.
   */
  negotiate(
    body: unknown,
    sessionId: string | undefined,
    holder: string,
  ): { apps: boolean; session?: string } {
    if (declaresApps(body)) return { apps: true, session: this.seals.session(holder) };
    return { apps: this.seals.isSession(sessionId, holder) };
  }

  /** The server's capabilities beside the tools and resources: it speaks the extension. */
  static readonly extensions = { [EXTENSION_ID]: {} };

  /**
   * Adds MCP Apps to a server built for one request: the resources, the links of the tools it registered, the
   * app-only tools, and the approvals app for the merchant's own connection.
   */
  attach(server: McpServer, tools: ReadonlyMap<string, RegisteredTool>, identity: AgentIdentity): void {
    const { caller } = identity;
    registerAppResources(server, this.options.appsDir);
    // The click in the app issues only on a connection the merchant granted by logging in (OAuth), whose host keeps
    // app-only tools from the model. A static token (BFF_AGENT_TOKENS) is a headless client as far as anyone can tell:
    // whatever it declares, it gets no grant and no app-only tool, and its labels wait for the desk (issue 48, 2).
    const byApp = caller.policy?.issue === 'app' && identity.merchantLogin === true;
    for (const [name, tool] of tools) {
      const app = name === 'generate_label' && byApp ? 'preview' : LINKS[name];
      if (app) tool.update({ _meta: uiMeta(app) });
    }
    const generate = tools.get('generate_label');
    if (!generate) return;
    if (byApp) {
      this.issueFromApp(server, generate, caller);
      const preview = tools.get('preview_label');
      if (preview)
        after(preview, (result) => ({ ...result, _meta: { ...result._meta, [META.byClick]: true } }));
    }
    // The merchant's own assistant only: an OAuth connection (granted through the merchant's login) whose policy on
    // /admin/agents says so. A connection an agent uses must not decide the approvals meant to stop it.
    if (identity.merchantLogin && caller.policy?.decidesApprovals === true) this.approvalsApp(server, caller);
  }

  /**
   * Under `issue: "app"`: `generate_label`'s pending answer carries, in `_meta`, the grant of its approval and the
   * preview; `app_issue_label` spends the grant.
   */
  private issueFromApp(server: McpServer, generate: RegisteredTool, caller: Caller): void {
    const { labels } = this.options;
    after(generate, async (result, input) => {
      const approvalId = pendingApproval(result);
      if (!approvalId) return result;
      const preview = await labels.preview(input, caller).catch(() => undefined);
      return {
        ...result,
        _meta: {
          ...result._meta,
          [META.grant]: this.seals.grant('issue', approvalId, caller.issuedBy),
          ...(preview ? { [META.preview]: preview } : {}),
        },
      };
    });
    server.registerTool(
      'app_issue_label',
      {
        title: 'Issue the previewed label',
        description:
          'Called by the label preview app when the person clicks "Emitir etiqueta": issues the label the grant names, once.',
        inputSchema: IssueInputSchema,
        annotations: CLICK,
        _meta: uiMeta('preview', ['app']),
      },
      async ({ grant }) => {
        const approvalId = this.seals.approvalOf('issue', grant, caller.issuedBy);
        if (!approvalId) return grantRefused();
        // The label counts against this agent's daily limits (the policy it asked with): over them, only the
        // merchant's second confirmation on the desk issues it.
        return decided(await labels.approve(approvalId));
      },
    );
  }

  /**
   * The merchant's own assistant: `show_approvals` opens the approvals app, whose buttons call `app_decide_approval`.
   * It lists the other agents' approvals only: a label this connection asked for waits for the desk (separation of
   * duties: whoever asks never approves, even through a host that ignores the app-only marking).
   */
  private approvalsApp(server: McpServer, caller: Caller): void {
    const { labels, approvals } = this.options;
    server.registerTool(
      'show_approvals',
      {
        title: 'Show pending approvals',
        description:
          'Shows the merchant the labels waiting for approval, each with approve and reject buttons. Only the merchant decides.',
        inputSchema: z.strictObject({}),
        outputSchema: ApprovalsOutputSchema,
        annotations: LIST,
        _meta: uiMeta('approvals'),
      },
      async () => {
        const waiting = (await approvals.list({ state: 'pending', limit: 50 })).filter(
          (approval) => approval.issuedBy !== caller.issuedBy,
        );
        // Each card tells what the agent may still issue today, as the desk's card does.
        const pending = await Promise.all(
          waiting.map(async (approval) => approvalRow(approval, await labels.approvalLimits(approval))),
        );
        const grants = Object.fromEntries(
          pending.map((row) => [row.approvalId, this.seals.grant('decide', row.approvalId, MERCHANT)]),
        );
        const summary =
          pending.length === 0
            ? 'No label waits for approval.'
            : `${pending.length} label(s) wait for the merchant's approval; the merchant decides in the app shown.`;
        return { ...answer(summary, { approvals: pending }), _meta: { [META.grants]: grants } };
      },
    );
    server.registerTool(
      'app_decide_approval',
      {
        title: 'Decide an approval',
        description: 'Called by the approvals app when the merchant clicks approve or reject.',
        inputSchema: DecideInputSchema,
        annotations: CLICK,
        _meta: uiMeta('approvals', ['app']),
      },
      async ({ grant, decision }) => {
        const approvalId = this.seals.approvalOf('decide', grant, MERCHANT);
        if (!approvalId) return grantRefused();
        // A grant is only made for other agents' approvals; checked again at the click, whatever the grant says.
        if ((await approvals.get(approvalId))?.issuedBy === caller.issuedBy) return grantRefused();
        if (decision === 'approve') return decided(await labels.approve(approvalId));
        const rejected = await labels.reject(approvalId);
        if ('rejected' in rejected) {
          return answer('Rejected: nothing was sent.', { reason: 'approval_rejected', approvalId });
        }
        return decided(rejected);
      },
    );
  }
}

/**
 * Adds to what a registered label tool answers (its input is the label request, as the SDK validated it), leaving
 * the tool's definition in tools.ts untouched.
 */
function after(
  tool: RegisteredTool,
  step: (result: CallToolResult, input: AgentLabelInput) => CallToolResult | Promise<CallToolResult>,
): void {
  const original = tool.handler as (input: AgentLabelInput, extra: unknown) => Promise<CallToolResult>;
  const callback = async (input: AgentLabelInput, extra: unknown) =>
    step(await original(input, extra), input);
  // The SDK types a callback by its schema, which this generic step cannot name: it is the tool's own input.
  tool.update({ callback: callback as never });
}

/** The approval a `generate_label` result waits for, when it is `approval_pending`. */
function pendingApproval(result: CallToolResult): string | undefined {
  const structured = result.structuredContent;
  if (structured?.reason !== 'approval_pending') return undefined;
  return typeof structured.approvalId === 'string' ? structured.approvalId : undefined;
}

function grantRefused(): CallToolResult {
  return refused('Nothing was sent: this grant is not valid for this connection.', {
    reason: 'grant_invalid',
    status: 'Issue and decide labels from the app that showed them.',
  });
}

/** What a click came to: the label (issued now, or the one the approval already issued), or why nothing was done. */
function decided(
  outcome: Awaited<ReturnType<LabelService['approve']>> | { missing: true } | { notPending: string },
): CallToolResult {
  if ('answer' in outcome) return labelAnswer(outcome.answer);
  if ('missing' in outcome) {
    return refused('Nothing was sent: no such approval.', { reason: 'approval_not_found' });
  }
  if ('overLimit' in outcome) {
    const { over } = outcome.overLimit;
    return refused(
      `Nothing was sent: this label would pass the agent's ${over} for today. Only the merchant can issue it over the limit, on the desk (/admin/approvals), with a second confirmation.`,
      { reason: 'agent_limit_reached', limit: over },
    );
  }
  return refused(`Nothing was sent: this label was ${outcome.notPending}.`, {
    reason: `approval_${outcome.notPending}`,
  });
}
