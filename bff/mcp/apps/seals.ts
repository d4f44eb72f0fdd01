import { createHmac, randomBytes } from 'node:crypto';
import { sameSecret } from '../../../shared/security/hash.ts';

/** What a seal vouches for: a connection that negotiated MCP Apps, or a click's right to decide one approval. */
type Purpose = 'ui-session' | 'issue' | 'decide';

/**
 * The BFF's seals for MCP Apps (docs/agents/apps.md): HMAC-SHA256 under a key derived from the secret key every
 * instance holds, so any instance checks a seal another made, and nothing is stored. Each seal names what it is for
 * and who holds it, so a seal is never good for another purpose, another approval or another agent.
 *
 * - A UI session (`Mcp-Session-Id`): the connection declared the `io.modelcontextprotocol/ui` extension when it
 *   initialized. The BFF is stateless (a server per request), so the negotiation travels with the client's requests
 *   as the session id the spec has every client send back, instead of living in one instance's memory.
 * - A grant: the right to issue (or decide) one pending approval, carried to the app in a tool result's `_meta`
 *   (never in the text or the structured content the model reads). It is single-use through the approval itself:
 *   of two clicks, the approval store lets one change it (bff/policies/approval-store.ts).
 */
export class AppSeals {
  private readonly key: Buffer;

  constructor(secretKey: string) {
    this.key = createHmac('sha256', secretKey).update('frete-kit mcp-apps seals v1').digest();
  }

  /** A new UI session id for `holder` (visible ASCII, as the transport spec asks). */
  session(holder: string): string {
    const nonce = randomBytes(16).toString('base64url');
    return `ui1.${nonce}.${this.sign('ui-session', nonce, holder)}`;
  }

  /** Whether `id` is a UI session this BFF gave to `holder`. */
  isSession(id: string | undefined, holder: string): boolean {
    const [version, nonce, signature, ...rest] = (id ?? '').split('.');
    if (version !== 'ui1' || !nonce || !signature || rest.length > 0) return false;
    return sameSecret(this.sign('ui-session', nonce, holder), signature);
  }

  /** The grant of `approvalId` for `purpose`, to `holder` (an agent's name, or the merchant). */
  grant(purpose: 'issue' | 'decide', approvalId: string, holder: string): string {
    return `${approvalId}.${this.sign(purpose, approvalId, holder)}`;
  }

  /** The approval a grant names, when it is a grant for `purpose` to `holder`; undefined otherwise. */
  approvalOf(purpose: 'issue' | 'decide', grant: string, holder: string): string | undefined {
    const dot = grant.lastIndexOf('.');
    if (dot < 1) return undefined;
    const approvalId = grant.slice(0, dot);
    return sameSecret(this.sign(purpose, approvalId, holder), grant.slice(dot + 1)) ? approvalId : undefined;
  }

  private sign(purpose: Purpose, subject: string, holder: string): string {
    // Lengths first, so no two different (subject, holder) pairs ever sign the same text.
    return createHmac('sha256', this.key)
      .update(`${purpose}\n${subject.length}:${subject}\n${holder.length}:${holder}`)
      .digest('base64url');
  }
}
