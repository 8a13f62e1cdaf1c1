package main

import (
	"fmt"
	"strconv"
	"strings"

	"usertasks/models"
)

// maxAttachmentSize bounds USERTASKS_ATTACHMENT_MAX_SIZE: a file is stored in 1 MiB chunks in
// the database itself, so a limit beyond 1 GiB would be a database size decision, not a setting.
const maxAttachmentSize = 1 << 30

// attachmentSettings are the table entries of the attachment settings (SPEC 10.2).
func (c *config) attachmentSettings() []setting {
	return []setting{{name: "USERTASKS_ATTACHMENT_MAX_SIZE", set: byteSize(&c.AttachmentMaxSize, maxAttachmentSize)}}
}

// byteSize stores a size in bytes, written as a number of bytes or with KiB or MiB, from 1
// byte to most.
func byteSize(dst *int64, most int64) func(name, v string) error {
	return func(name, v string) error {
		num, unit := v, int64(1)
		for suffix, n := range map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20} {
			if s, ok := strings.CutSuffix(v, suffix); ok {
				num, unit = strings.TrimSpace(s), n
			}
		}
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil || n < 1 || n > most/unit {
			return fmt.Errorf("%s=%s is not a size from 1 byte to %d MiB (e.g. 10MiB, 512KiB, 1048576)", name, quoteShort(v), most>>20)
		}
		*dst = n * unit
		return nil
	}
}

// defaultAttachmentMaxSize is the limit of an unset USERTASKS_ATTACHMENT_MAX_SIZE.
const defaultAttachmentMaxSize = models.DefaultAttachmentMaxSize
