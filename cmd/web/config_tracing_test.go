package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"usertasks/tracing"
)

// readTracing applies the table to vars (as `web serve` reads it) and returns what tracing
// would be built with.
func readTracing(t *testing.T, vars map[string]string) (tracing.Config, error) {
	t.Helper()
	c := defaultConfig()
	err := c.read(env(vars), false)
	return c.Tracing.config("v1"), err
}

func TestTracingConfig(t *testing.T) {
	for _, tc := range []struct {
		name string
		vars map[string]string
		want tracing.Config
	}{
		{"Off", map[string]string{"OTEL_SERVICE_NAME": "x", "OTEL_TRACES_SAMPLER": "always_on"},
			tracing.Config{ServiceName: "x", Version: "v1", Sampler: "always_on", Ratio: 1}},
		{"Base", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"},
			tracing.Config{URL: "http://collector:4318/v1/traces", Version: "v1", Sampler: "parentbased_always_on", Ratio: 1}},
		{"BaseWithPath", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "https://otel.example/ingest/"},
			tracing.Config{URL: "https://otel.example/ingest/v1/traces", Version: "v1", Sampler: "parentbased_always_on", Ratio: 1}},
		{"TracesEndpointWins", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a:4318", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://b:4318/custom",
			"OTEL_TRACES_SAMPLER": "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.25", "OTEL_SERVICE_NAME": "tasks-eu"},
			tracing.Config{URL: "http://b:4318/custom", ServiceName: "tasks-eu", Version: "v1", Sampler: "parentbased_traceidratio", Ratio: 0.25}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readTracing(t, tc.vars)
			if err != nil {
				t.Fatal(err)
			}
			if got.URL != tc.want.URL || got.ServiceName != tc.want.ServiceName || got.Version != tc.want.Version ||
				got.Sampler != tc.want.Sampler || got.Ratio != tc.want.Ratio || got.Enabled() != (tc.want.URL != "") {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestTracingHeaders(t *testing.T) {
	got, err := readTracing(t, map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": " api-key = s3cr%2Ct ,Authorization=Bearer%20tok%C3%A9n"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Headers) != 2 || got.Headers["api-key"] != "s3cr,t" || got.Headers["Authorization"] != "Bearer tokén" {
		t.Fatalf("headers %q", got.Headers)
	}
	file := filepath.Join(t.TempDir(), "headers")
	os.WriteFile(file, []byte("api-key=from-file\n"), 0o600)
	got, err = readTracing(t, map[string]string{"OTEL_EXPORTER_OTLP_HEADERS_FILE": file})
	if err != nil || got.Headers["api-key"] != "from-file" {
		t.Fatalf("headers from the file: %q, %v", got.Headers, err)
	}
}

// A bad endpoint, sampler, ratio or header stops the start with the variable's name, and the
// refusal never repeats what may be a secret.
func TestTracingRefusals(t *testing.T) {
	const secret = "hunter2-SECRET"
	for _, tc := range []struct{ name, variable, value string }{
		{"EndpointWithoutScheme", "OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318"},
		{"EndpointHostOnly", "OTEL_EXPORTER_OTLP_ENDPOINT", "collector"},
		{"EndpointGRPCScheme", "OTEL_EXPORTER_OTLP_ENDPOINT", "grpc://collector:4317"},
		{"EndpointNoHost", "OTEL_EXPORTER_OTLP_ENDPOINT", "http://"},
		{"EndpointCredentials", "OTEL_EXPORTER_OTLP_ENDPOINT", "https://user:" + secret + "@collector"},
		{"EndpointQuery", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "https://collector/v1/traces?key=" + secret},
		{"EndpointFragment", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "https://collector/v1/traces#" + secret},
		{"EndpointControl", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://coll\x7fector/" + secret},
		{"SamplerUnknown", "OTEL_TRACES_SAMPLER", "jaeger_remote"},
		{"SamplerCase", "OTEL_TRACES_SAMPLER", "AlwaysOn"},
		{"RatioAboveOne", "OTEL_TRACES_SAMPLER_ARG", "1.5"},
		{"RatioWord", "OTEL_TRACES_SAMPLER_ARG", "half"},
		{"HeaderWithoutValue", "OTEL_EXPORTER_OTLP_HEADERS", "api-key"},
		{"HeaderWithoutName", "OTEL_EXPORTER_OTLP_HEADERS", "=" + secret},
		{"HeaderNameWithSpace", "OTEL_EXPORTER_OTLP_HEADERS", "api key=" + secret},
		{"HeaderBadEscape", "OTEL_EXPORTER_OTLP_HEADERS", "api-key=" + secret + "%zz"},
		{"HeaderLineBreak", "OTEL_EXPORTER_OTLP_HEADERS", "api-key=" + secret + "%0D%0AX-Evil: 1"},
		{"HeaderSecondEntry", "OTEL_EXPORTER_OTLP_HEADERS", "a=1,," + secret},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readTracing(t, map[string]string{tc.variable: tc.value})
			if err == nil {
				t.Fatalf("%s=%q accepted", tc.variable, tc.value)
			}
			if !strings.HasPrefix(err.Error(), tc.variable) {
				t.Errorf("refusal %q does not name %s first", err, tc.variable)
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("refusal %q repeats the value", err)
			}
		})
	}
}
