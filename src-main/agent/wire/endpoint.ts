// A host and port to reach: a connectivity target, or the proxy or server a call goes to.
export interface Endpoint {
  host: string;
  port: number;
}
