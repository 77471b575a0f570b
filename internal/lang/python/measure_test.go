package python

import (
	"os"
	"runtime"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"syscall"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

func loadPy(root string) ([][]byte, int) {
	var files [][]byte
	total := 0
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".py") && !strings.Contains(p, "lib2to3") && !strings.Contains(p, "/test/bad") {
			b, _ := os.ReadFile(p)
			files = append(files, b)
			total += len(b)
		}
		return nil
	})
	return files, total
}

func TestMeasure(t *testing.T) {
	root := os.Getenv("PYROOT")
	if root == "" {
		t.Skip()
	}
	files, total := loadPy(root)
	initLanguage()
	p := sitter.NewParser()
	p.SetLanguage(language)
	cpu := func() time.Duration {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_THREAD, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	d0, d := time.Hour, time.Hour
	nodes, errs := 0, 0
	for round := 0; round < 3; round++ {
		runtime.LockOSThread()
		t0 := cpu()
		for _, f := range files {
			ts := p.Parse(f, nil)
			ts.Close()
		}
		d0 = min(d0, cpu()-t0)
		t0 = cpu()
		nodes, errs = 0, 0
		for _, f := range files {
			tr := parse(f)
			walk(tr.root, func(*node) bool { nodes++; return true })
			if tr.errors > 0 {
				errs++
			}
		}
		d = min(d, cpu()-t0)
		runtime.UnlockOSThread()
	}
	t.Logf("%d files %d bytes %d nodes; CPU time (thread), best of 3: parse only %v (%.2f MB/s); parse+copy %v (%.2f MB/s); %d with errors", len(files), total, nodes, d0, float64(total)/d0.Seconds()/1e6, d, float64(total)/d.Seconds()/1e6, errs)
}
