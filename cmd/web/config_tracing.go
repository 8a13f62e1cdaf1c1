package main

import (
	"fmt"
	"net/url"
	"strings"

	"golang.org/x/net/http/httpguts"

	"usertasks/tracing"
)

// tracingConfig is OpenTelemetry tracing, configured through the specification's standard
// variables. Without an endpoint there is no tracing at all: no exporter, no goroutine.
type tracingConfig struct {
	// Endpoint is OTEL_EXPORTER_OTLP_ENDPOINT, the collector's base URL: spans go to its
	// /v1/traces. TracesEndpoint (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is the full traces URL,
	// used as it is, and wins.
	Endpoint, TracesEndpoint string
	// Headers (OTEL_EXPORTER_OTLP_HEADERS, or _FILE): key=value pairs, comma-separated, values
	// percent-encoded, sent with every export.
	Headers     map[string]string
	ServiceName string // OTEL_SERVICE_NAME; default usertasks
	Sampler     string // OTEL_TRACES_SAMPLER; default parentbased_always_on
	Ratio       float64
	ratioSet    bool // OTEL_TRACES_SAMPLER_ARG was given; else 1.0
}

// tracingSettings are the table entries of tracingConfig, bound to c. Only `web serve` reads
// them; the unknown-variable warning is about USERTASKS_* names only.
func (c *config) tracingSettings() []setting {
	t := &c.Tracing
	return []setting{
		{name: "OTEL_EXPORTER_OTLP_ENDPOINT", set: otlpURL(&t.Endpoint)},
		{name: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", set: otlpURL(&t.TracesEndpoint)},
		{name: "OTEL_EXPORTER_OTLP_HEADERS", file: true, set: t.setHeaders},
		{name: "OTEL_SERVICE_NAME", set: text(&t.ServiceName)},
		{name: "OTEL_TRACES_SAMPLER", set: oneOf(&t.Sampler, tracing.Samplers...)},
		{name: "OTEL_TRACES_SAMPLER_ARG", set: t.setRatio},
	}
}

// otlpURL stores an absolute http(s) URL without credentials, query or fragment: the
// exporter would drop those silently. The refusal repeats no part of the value, which may
// hold a secret.
func otlpURL(dst *string) func(name, v string) error {
	return func(name, v string) error {
		u, err := url.Parse(v)
		switch {
		case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "":
			return fmt.Errorf("%s must be an absolute http or https URL, e.g. http://collector:4318", name)
		case u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
			return fmt.Errorf("%s must not carry credentials, a query or a fragment; send credentials with OTEL_EXPORTER_OTLP_HEADERS", name)
		}
		*dst = v
		return nil
	}
}

// setHeaders reads key=value,key=value with percent-encoded values (the W3C baggage form the
// specification names). A refusal names the entry by position, never its content.
func (t *tracingConfig) setHeaders(name, v string) error {
	headers := map[string]string{}
	for i, entry := range strings.Split(v, ",") {
		key, value, ok := strings.Cut(entry, "=")
		key = strings.TrimSpace(key)
		decoded, err := url.PathUnescape(strings.TrimSpace(value))
		if !ok || !httpguts.ValidHeaderFieldName(key) || err != nil || !httpguts.ValidHeaderFieldValue(decoded) {
			return fmt.Errorf("%s: entry %d is not key=value with a header name and a percent-encoded value", name, i+1)
		}
		headers[key] = decoded
	}
	t.Headers = headers
	return nil
}

func (t *tracingConfig) setRatio(name, v string) error {
	r, err := tracing.ParseRatio(v)
	if err != nil {
		return fmt.Errorf("%s %s, not %s", name, err, quoteShort(v))
	}
	t.Ratio, t.ratioSet = r, true
	return nil
}

// config is what tracing.New takes: the traces URL settled, defaults applied. Its URL is
// empty when no endpoint is configured.
func (t tracingConfig) config(version string) tracing.Config {
	c := tracing.Config{URL: t.TracesEndpoint, Headers: t.Headers, ServiceName: t.ServiceName,
		Version: version, Sampler: t.Sampler, Ratio: 1}
	if c.URL == "" && t.Endpoint != "" {
		u, _ := url.Parse(t.Endpoint) // checked by otlpURL
		u.Path = strings.TrimRight(u.Path, "/") + "/v1/traces"
		u.RawPath = ""
		c.URL = u.String()
	}
	if c.Sampler == "" {
		c.Sampler = tracing.DefaultSampler
	}
	if t.ratioSet {
		c.Ratio = t.Ratio
	}
	return c
}
