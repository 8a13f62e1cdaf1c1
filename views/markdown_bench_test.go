package views

import (
	"context"
	"fmt"
	"testing"
)

// markdownBenchSizes are the input sizes of BenchmarkMarkdownAdversarial; instructions are at
// most 256 KiB. Linear rendering takes about 16 times as long at 256 KiB as at 16 KiB.
var markdownBenchSizes = []int{16 << 10, 64 << 10, 256 << 10}

func BenchmarkMarkdownAdversarial(b *testing.B) {
	for _, in := range adversarialInputs {
		for _, size := range markdownBenchSizes {
			src := in.gen(size)
			b.Run(fmt.Sprintf("%s/%dKiB", in.name, size>>10), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					ParseMarkdown(context.Background(), src)
				}
			})
		}
	}
}
