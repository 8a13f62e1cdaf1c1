package main

import (
	"strings"
	"testing"
)

func TestAttachmentMaxSize(t *testing.T) {
	for in, want := range map[string]int64{"1048576": 1 << 20, "10MiB": 10 << 20, "512KiB": 512 << 10, "1024MiB": 1 << 30, "1": 1} {
		var got int64
		if err := byteSize(&got, maxAttachmentSize)("USERTASKS_ATTACHMENT_MAX_SIZE", in); err != nil || got != want {
			t.Errorf("%q: %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"0", "-1", "1025MiB", "10MB", "ten", "1.5MiB", "9223372036854775807MiB"} {
		var got int64
		err := byteSize(&got, maxAttachmentSize)("USERTASKS_ATTACHMENT_MAX_SIZE", in)
		if err == nil || !strings.Contains(err.Error(), "USERTASKS_ATTACHMENT_MAX_SIZE") {
			t.Errorf("%q: %d, %v; want a refusal naming the variable", in, got, err)
		}
	}
	if c := defaultConfig(); c.AttachmentMaxSize != 10<<20 {
		t.Errorf("default %d", c.AttachmentMaxSize)
	}
}
