//! Who the client is behind reverse proxies the operator trusts (`plateau serve --trusted-proxy`,
//! docs/protocol.md section 6): on a connection from a trusted proxy, the address that proxy
//! names in the forwarding header; on any other connection, its other end, whatever headers it
//! sends.
//!
//! Each proxy appends the address of its own peer to the header, so the header is read from the
//! right: past every trusted proxy, the first address that is not one is the client. What lies
//! further left was written by the client or by proxies nobody vouches for, and is not read.

use std::net::{IpAddr, SocketAddr};

use axum::http::HeaderMap;
use ipnet::IpNet;

/// The header trusted proxies name their peers in. Only the one the proxies set is read: a
/// proxy passes the other through as the client sent it, and reading it would let the client
/// name itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ForwardedHeader {
    /// `X-Forwarded-For: client, proxy1, proxy2` (nginx's `$proxy_add_x_forwarded_for`,
    /// HAProxy's `option forwardfor`).
    #[default]
    XForwardedFor,
    /// RFC 7239's `Forwarded: for=client, for=proxy1` (HAProxy's `option forwarded`); each
    /// element's `for` parameter.
    Forwarded,
}

impl ForwardedHeader {
    /// The header's name, lower case.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ForwardedHeader::XForwardedFor => "x-forwarded-for",
            ForwardedHeader::Forwarded => "forwarded",
        }
    }
}

/// The reverse proxies whose forwarding header names the client.
#[derive(Clone, Debug, Default)]
pub struct TrustedProxies {
    /// The networks trusted proxies connect from (a single address is a /32 or /128).
    pub networks: Vec<IpNet>,
    /// The header they set.
    pub header: ForwardedHeader,
}

impl TrustedProxies {
    /// Whether `addr` is a trusted proxy's (an IPv4 address written as IPv6, `::ffff:a.b.c.d`,
    /// as its IPv4 address).
    #[must_use]
    pub fn trusts(&self, addr: IpAddr) -> bool {
        let addr = addr.to_canonical();
        self.networks.iter().any(|n| n.contains(&addr))
    }

    /// The client of a request that came from `peer` with `headers`. From a peer that is no
    /// trusted proxy: `peer`. From a trusted proxy: the header's addresses are read from the
    /// right, past each trusted proxy, and the first that is none is the client. Where the
    /// header ends, or an entry cannot be read as an address (`unknown`, an obfuscated name,
    /// garbage), before an untrusted address is met, the client is the last trusted proxy
    /// read (the peer itself when the header is absent): such a request counts against that
    /// proxy's own limits, never against an address nobody vouched for. IPv4 addresses written
    /// as IPv6 are given as IPv4.
    #[must_use]
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let mut client = peer.to_canonical();
        if !self.trusts(client) {
            return client;
        }
        // Header lines in order are one list (RFC 9110 section 5.3): the last line's last
        // entry is the nearest hop.
        for line in headers.get_all(self.header.name()).iter().rev() {
            let Ok(line) = line.to_str() else {
                return client;
            };
            for entry in line.rsplit(',') {
                let hop = match self.header {
                    ForwardedHeader::XForwardedFor => node(entry),
                    ForwardedHeader::Forwarded => forwarded_for(entry),
                };
                let Some(hop) = hop else {
                    return client;
                };
                client = hop.to_canonical();
                if !self.trusts(client) {
                    return client;
                }
            }
        }
        client
    }
}

/// The `for` parameter of one element of `Forwarded` (`for=192.0.2.60;proto=https`, the name
/// in any case, the value quoted or not), as an address; `None` without one or when it is no
/// address (`unknown`, `_hidden`).
fn forwarded_for(element: &str) -> Option<IpAddr> {
    element.split(';').find_map(|pair| {
        let (name, value) = pair.split_once('=')?;
        if !name.trim().eq_ignore_ascii_case("for") {
            return None;
        }
        let value = value.trim();
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(value);
        node(value)
    })
}

/// One hop as the headers write it: `192.0.2.1`, `192.0.2.1:4711`, `2001:db8::1`,
/// `[2001:db8::1]` or `[2001:db8::1]:4711`, with spaces around; `None` for anything else.
fn node(text: &str) -> Option<IpAddr> {
    let text = text.trim();
    text.parse::<IpAddr>()
        .or_else(|_| text.parse::<SocketAddr>().map(|a| a.ip()))
        .ok()
        .or_else(|| {
            text.strip_prefix('[')?
                .strip_suffix(']')?
                .parse::<std::net::Ipv6Addr>()
                .ok()
                .map(IpAddr::V6)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn proxies(networks: &[&str], header: ForwardedHeader) -> TrustedProxies {
        TrustedProxies {
            networks: networks.iter().map(|n| n.parse().unwrap()).collect(),
            header,
        }
    }

    fn headers(name: &str, lines: &[&[u8]]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for l in lines {
            h.append(
                axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                HeaderValue::from_bytes(l).unwrap(),
            );
        }
        h
    }

    fn xff(lines: &[&str]) -> HeaderMap {
        let lines: Vec<&[u8]> = lines.iter().map(|l| l.as_bytes()).collect();
        headers("x-forwarded-for", &lines)
    }

    #[test]
    fn a_stranger_names_nobody() {
        let p = proxies(&["10.0.0.0/8"], ForwardedHeader::XForwardedFor);
        let spoofed = xff(&["198.51.100.1"]);
        assert_eq!(p.client(ip("203.0.113.9"), &spoofed), ip("203.0.113.9"));
        // With no proxy trusted, nobody's header is read.
        let none = TrustedProxies::default();
        assert_eq!(none.client(ip("10.0.0.1"), &spoofed), ip("10.0.0.1"));
    }

    #[test]
    fn the_right_most_untrusted_hop_is_the_client() {
        let p = proxies(
            &["10.0.0.0/8", "2001:db8:f::/48"],
            ForwardedHeader::XForwardedFor,
        );
        // The client wrote 192.0.2.66 itself; the proxy saw 203.0.113.5.
        let chain = xff(&["192.0.2.66, 203.0.113.5"]);
        assert_eq!(p.client(ip("10.0.0.1"), &chain), ip("203.0.113.5"));
        // Two proxies in a row, over two header lines, the second one's entry with a port.
        let two = xff(&["192.0.2.66, 203.0.113.5", "10.1.2.3:8080"]);
        assert_eq!(p.client(ip("10.0.0.1"), &two), ip("203.0.113.5"));
        // IPv6 proxies and clients, bracketed or not, and an IPv4 peer written as IPv6.
        let v6 = xff(&["2001:db8:1::7, [2001:db8:f::2]:443"]);
        assert_eq!(p.client(ip("2001:db8:f::1"), &v6), ip("2001:db8:1::7"));
        let mapped = xff(&["[2001:db8:1::8]"]);
        assert_eq!(
            p.client(ip("::ffff:10.0.0.1"), &mapped),
            ip("2001:db8:1::8")
        );
        let mapped_client = xff(&["::ffff:203.0.113.5"]);
        assert_eq!(p.client(ip("10.0.0.1"), &mapped_client), ip("203.0.113.5"));
    }

    #[test]
    fn a_header_that_names_no_stranger_leaves_the_last_proxy() {
        let p = proxies(&["10.0.0.0/8"], ForwardedHeader::XForwardedFor);
        // No header: the proxy's own request.
        assert_eq!(p.client(ip("10.0.0.1"), &HeaderMap::new()), ip("10.0.0.1"));
        // Only proxies: the furthest one.
        let proxies_only = xff(&["10.9.9.9, 10.0.0.2"]);
        assert_eq!(p.client(ip("10.0.0.1"), &proxies_only), ip("10.9.9.9"));
        // Unreadable entries stop the walk where they stand, whatever lies left of them.
        for bad in [
            "203.0.113.5, unknown",
            "203.0.113.5, ",
            "203.0.113.5,,",
            "203.0.113.5, 10.0.0.2 10.0.0.3",
            "203.0.113.5, [10.0.0.2]",
            "203.0.113.5, 2001:db8::1:99999",
            "",
        ] {
            assert_eq!(
                p.client(ip("10.0.0.1"), &xff(&[bad])),
                ip("10.0.0.1"),
                "{bad}"
            );
        }
        let bad_then_proxy = xff(&["203.0.113.5, nonsense, 10.0.0.2"]);
        assert_eq!(p.client(ip("10.0.0.1"), &bad_then_proxy), ip("10.0.0.2"));
        // A line that is not text.
        let binary = headers("x-forwarded-for", &[b"203.0.113.5", b"\xff\xfe"]);
        assert_eq!(p.client(ip("10.0.0.1"), &binary), ip("10.0.0.1"));
        // Very long lines are read without trouble.
        let long = format!("{}203.0.113.5", "x,".repeat(10_000));
        assert_eq!(p.client(ip("10.0.0.1"), &xff(&[&long])), ip("203.0.113.5"));
    }

    #[test]
    fn forwarded_is_read_by_its_for_parameter() {
        let p = proxies(&["10.0.0.0/8"], ForwardedHeader::Forwarded);
        let h = |lines: &[&str]| {
            let lines: Vec<&[u8]> = lines.iter().map(|l| l.as_bytes()).collect();
            headers("forwarded", &lines)
        };
        let chain = h(&["for=192.0.2.66;proto=http, For=\"[2001:db8:cafe::17]:4711\";by=10.0.0.9"]);
        assert_eq!(p.client(ip("10.0.0.1"), &chain), ip("2001:db8:cafe::17"));
        let through = h(&["for=203.0.113.5", "proto=https; for=10.0.0.2:80 ;by=x"]);
        assert_eq!(p.client(ip("10.0.0.1"), &through), ip("203.0.113.5"));
        for bad in [
            "for=unknown",
            "for=_hidden",
            "proto=https",
            "for",
            "for=\"192.0.2.1",
        ] {
            assert_eq!(
                p.client(ip("10.0.0.1"), &h(&[bad])),
                ip("10.0.0.1"),
                "{bad}"
            );
        }
        // Only the header the proxies set is read: the other is the client's own word.
        let other = xff(&["203.0.113.5"]);
        assert_eq!(p.client(ip("10.0.0.1"), &other), ip("10.0.0.1"));
    }
}
