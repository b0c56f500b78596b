/**
 * The client address, as rate limits see it. The socket peer is the client unless it is a
 * trusted proxy; then the X-Forwarded-For entries are read from the right (each proxy appends
 * the address it received the request from), skipping trusted proxies, and the first untrusted
 * entry is the client. Entries further left were written by the client and prove nothing.
 */
import ipaddr from "ipaddr.js";

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** The ranges the words of TRUST_PROXY stand for. */
const WORDS: Record<string, string[]> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  private: [
    "10.0.0.0/8",
    "172.16.0.0/12",
    "192.168.0.0/16",
    "169.254.0.0/16",
    "fc00::/7",
    "fe80::/10",
  ],
};

/**
 * Parses TRUST_PROXY into CIDR ranges: a comma list of addresses, CIDRs and the words
 * `loopback`, `private` and `none`. Unset means `loopback`; `1`/`true` (the old switch) mean
 * `loopback,private`, and `0`/`false` mean `none`. Throws on anything else.
 */
export function parseTrustProxy(raw: string | undefined): string[] {
  const text = (raw ?? "").trim().toLowerCase();
  if (text === "") return [...WORDS.loopback];
  if (text === "1" || text === "true") return [...WORDS.loopback, ...WORDS.private];
  if (text === "0" || text === "false" || text === "none") return [];
  const out: string[] = [];
  for (const entry of text.split(",").map((e) => e.trim())) {
    if (WORDS[entry]) out.push(...WORDS[entry]);
    else out.push(normaliseRange(entry, raw!));
  }
  return [...new Set(out)];
}

function normaliseRange(entry: string, raw: string): string {
  const slash = entry.indexOf("/");
  const addr = parseStrict(slash < 0 ? entry : entry.slice(0, slash));
  const max = addr?.kind() === "ipv4" ? 32 : 128;
  const bits = slash < 0 ? max : Number(entry.slice(slash + 1));
  if (!addr || !/^\d{1,3}$/.test(String(bits)) || bits > max) {
    throw new Error(
      `Invalid TRUST_PROXY "${raw}": "${entry}" is not an address, a CIDR range, ` +
        `"loopback", "private" or "none"`,
    );
  }
  return `${addr.toString()}/${bits}`;
}

/** An address in its usual notation only (ipaddr.parse also takes "1.2.3" or hex parts). */
function parseStrict(text: string): Address | null {
  if (text.includes(":")) return ipaddr.IPv6.isValid(text) ? ipaddr.IPv6.parse(text) : null;
  return ipaddr.IPv4.isValidFourPartDecimal(text) ? ipaddr.IPv4.parse(text) : null;
}

/** Parses an address; IPv4-mapped IPv6 becomes IPv4. Null when it is not an address. */
function parseAddress(text: string): Address | null {
  const addr = parseStrict(text);
  if (addr?.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (addr as ipaddr.IPv6).toIPv4Address();
  }
  return addr;
}

/** Which peers may speak for the client through X-Forwarded-For. */
export class TrustedProxies {
  private ranges: [Address, number][];

  /** Ranges as `parseTrustProxy` returns them. */
  constructor(readonly cidrs: string[]) {
    this.ranges = cidrs.map((cidr) => {
      const [addr, bits] = ipaddr.parseCIDR(cidr);
      const mapped = addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress();
      return mapped && bits >= 96
        ? [(addr as ipaddr.IPv6).toIPv4Address(), bits - 96]
        : [addr, bits];
    });
  }

  /** True when no proxy is trusted. */
  get none(): boolean {
    return this.ranges.length === 0;
  }

  private trusts(addr: Address): boolean {
    return this.ranges.some(([range, bits]) =>
      range.kind() === addr.kind() && addr.match(range, bits)
    );
  }

  /**
   * The client address of a request from `peer` carrying `forwardedFor`, and whether the peer
   * forwarded for someone without being trusted to. A malformed entry ends the walk: the last
   * trusted hop is the client then, as it is when every entry is a trusted proxy.
   */
  resolve(peer: string, forwardedFor: string): { address: string; untrusted: boolean } {
    const from = parseAddress(peer);
    if (!from || !this.trusts(from)) return { address: peerAddress(peer), untrusted: true };
    let client = from;
    const hops = forwardedFor.split(",");
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = parseAddress(hops[i].trim());
      if (!hop) break;
      client = hop;
      if (!this.trusts(hop)) break;
    }
    return { address: client.toString(), untrusted: false };
  }
}

/** The peer address as a subject: IPv4-mapped IPv6 as IPv4, and no parsing otherwise. */
export function peerAddress(hostname: string): string {
  if (!hostname.startsWith("::ffff:")) return hostname;
  return parseAddress(hostname)?.toString() ?? hostname;
}
