package cli

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// memSoftLimit is the heap size the hook's collector keeps under while
// the live heap allows it. A check's heap stays live until it ends
// (syntax trees, types), and gcPercent lets it grow to three times what
// is live: on 50 commits of terraform's history that was 400-450 MB peak
// RSS for a live heap of about 130 MB. Under this limit the collector
// runs earlier instead, for a few percent more CPU (324-362 MB, issue
// 26's target for a range is 300 MB of RSS, which counts more than the
// heap).
const memSoftLimit = 256 << 20

// capMemory sets the soft memory limit, unless GOMEMLIMIT sets one. A
// limit below the live heap would make the collector run without pause
// (up to half the CPU): after each collection whose live heap passed
// two thirds of the limit, the limit is raised to twice the live heap,
// so a check of a large repository only loses the cap, never its speed.
func capMemory() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	limit := int64(memSoftLimit)
	debug.SetMemoryLimit(limit)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var watch func()
	watch = func() {
		// a finalizer runs after the collection that found its object
		// unreachable: once per cycle, re-armed each time (64 bytes: the
		// tiny allocator would batch a smaller object with others)
		runtime.SetFinalizer(new([64]byte), func(*[64]byte) {
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 {
				if live := int64(sample[0].Value.Uint64()); live > limit*2/3 {
					limit = 2 * live
					debug.SetMemoryLimit(limit)
				}
			}
			watch()
		})
	}
	watch()
}
