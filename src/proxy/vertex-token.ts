/**
 * The Vertex AI access token behind the model proxy, minted here from the job's Application Default Credentials
 * (what google-github-actions/auth leaves: GOOGLE_APPLICATION_CREDENTIALS naming a service-account key or a
 * Workload Identity Federation config; else gcloud's ADC file or the host's metadata server). google-auth-library
 * does the minting, caching and refresh, as it would have done inside gemini. This runs in the action's process
 * only: the proxy child receives tokens on its stdin, and the agent gets neither the file nor its path.
 */
import type { GoogleAuth } from 'google-auth-library';
import { UserError, getErrorMessage, oneLine } from '../util/errors.js';

const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

export interface AccessTokenSource {
  token(): Promise<string>;
}

export class VertexTokenSource implements AccessTokenSource {
  /** Made on first use: google-auth-library is loaded then, never by a job on an API key. */
  private auth: Promise<GoogleAuth> | undefined;
  private readonly keyFilename: string | undefined;
  /** Where the credential came from, for messages (a path, never a secret). */
  readonly origin: string;

  constructor(env: NodeJS.ProcessEnv) {
    const keyFilename = env.GOOGLE_APPLICATION_CREDENTIALS || undefined;
    this.origin = keyFilename
      ? `GOOGLE_APPLICATION_CREDENTIALS (${keyFilename})`
      : "Application Default Credentials (gcloud's ADC file or the host's metadata server)";
    this.keyFilename = keyFilename;
  }

  private googleAuth(): Promise<GoogleAuth> {
    const keyFilename = this.keyFilename;
    return (this.auth ??= import('google-auth-library').then(
      ({ GoogleAuth }) =>
        new GoogleAuth({ scopes: [CLOUD_PLATFORM_SCOPE], ...(keyFilename ? { keyFilename } : {}) }),
    ));
  }

  /** A valid access token; google-auth-library caches it and refreshes it 5 minutes before it expires. */
  async token(): Promise<string> {
    const token = await (await this.googleAuth()).getAccessToken();
    if (!token) throw new Error('the credentials gave no access token');
    return token;
  }
}

/**
 * A token source whose first token is minted now: credentials that cannot give one end the run before anything
 * starts, with the library's reason (a UserError).
 */
export async function prepareVertexToken(env: NodeJS.ProcessEnv): Promise<VertexTokenSource> {
  const source = new VertexTokenSource(env);
  try {
    await source.token();
  } catch (e) {
    throw new UserError(
      `Vertex AI: could not get an access token from ${source.origin}: ${oneLine(getErrorMessage(e))}. ` +
        'Authenticate first, e.g. with google-github-actions/auth.',
    );
  }
  return source;
}
