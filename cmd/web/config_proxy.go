package main

import (
	"fmt"
	"net"
	"strings"

	"github.com/labstack/echo/v4"
)

// setTrustedProxies reads USERTASKS_TRUSTED_PROXIES: comma-separated CIDR ranges (or single
// addresses) of the reverse proxies in front of the server. Only a request from one of them
// has its remote address taken from X-Forwarded-For (the guest API's rate limit is per remote
// address); without the variable the peer address counts and forwarding headers are ignored.
func (c *config) setTrustedProxies(name, value string) error {
	c.TrustedProxies = nil
	for _, part := range strings.Split(value, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if !strings.Contains(part, "/") {
			ip := net.ParseIP(part)
			if ip == nil {
				return fmt.Errorf("%s: %s is not an address or CIDR range", name, quoteShort(part))
			}
			bits := 8 * len(ip.To16())
			if ip.To4() != nil {
				ip, bits = ip.To4(), 32
			}
			c.TrustedProxies = append(c.TrustedProxies, &net.IPNet{IP: ip, Mask: net.CIDRMask(bits, bits)})
			continue
		}
		_, ipnet, err := net.ParseCIDR(part)
		if err != nil {
			return fmt.Errorf("%s: %s is not an address or CIDR range", name, quoteShort(part))
		}
		c.TrustedProxies = append(c.TrustedProxies, ipnet)
	}
	return nil
}

// ipExtractor is how the router finds a request's remote address: the peer address, or, behind
// trusted proxies, the nearest untrusted address of X-Forwarded-For.
func (c *config) ipExtractor() echo.IPExtractor {
	if len(c.TrustedProxies) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, r := range c.TrustedProxies {
		opts = append(opts, echo.TrustIPRange(r))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}
