/** A client certificate and its key, PEM. */
export interface ClientCertificate {
  readonly cert: string;
  readonly key: string;
}

/** What one request authenticates with. */
export interface RequestCredentials {
  /** The Authorization header's value. */
  readonly authorization?: string;
  /** A client certificate that replaces the RestConfig's own (an exec plugin may hand one out). */
  readonly clientCertificate?: ClientCertificate;
}

/**
 * Where a request's credentials come from, asked before each request: a token file is re-read, an
 * exec plugin run again once its credential expires.
 */
export interface Credentials {
  get(signal?: AbortSignal): Promise<RequestCredentials>;
  /** The API server answered 401 to a request sent with `used`: get fresh ones next time. */
  rejected(used: RequestCredentials): void;
}

/**
 * How to reach and authenticate to one API server: client-go's rest.Config. `loadRestConfig` builds
 * one from a kubeconfig or the pod's service account.
 */
export interface RestConfig {
  /** `https://host:port`, maybe with a path prefix. */
  readonly server: string;
  /** The context's namespace; 'default' when it names none. */
  readonly namespace: string;
  /** PEM of the CAs the server's certificate must chain to. Default: the system's roots. */
  readonly ca?: string;
  readonly clientCertificate?: ClientCertificate;
  readonly insecureSkipTlsVerify?: boolean;
  /** The name the server's certificate is checked against, instead of the server's host. */
  readonly tlsServerName?: string;
  /** An http(s) proxy to tunnel through (CONNECT). */
  readonly proxyUrl?: string;
  readonly credentials?: Credentials;
  /**
   * Act as another identity (the kubeconfig's `as`, `as-groups`, `as-uid`, `as-user-extra`), which
   * needs `impersonate` rights.
   */
  readonly impersonate?: {
    readonly user: string;
    readonly groups: readonly string[];
    readonly uid?: string;
    readonly extra: Readonly<Record<string, readonly string[]>>;
  };
  /** Where this came from, for messages: `context kind-dev of ~/.kube/config`, `in-cluster`. */
  readonly source: string;
}

/** Credentials that never change: a token written in the kubeconfig. */
export function staticCredentials(authorization: string): Credentials {
  const credentials: RequestCredentials = { authorization };
  const answer = Promise.resolve(credentials);
  return { get: () => answer, rejected: () => undefined };
}
