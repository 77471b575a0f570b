package harness

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Uses are the local equivalents of the actions action.yml uses.
var Uses = map[string]UsesFunc{
	"actions/setup-go": setupGo,
	"actions/cache":    cache,
}

// setupGo stands for actions/setup-go: the runner's Go is what it would
// have installed. It fails when there is none on the job's PATH, which a
// test that removes Go from PATH would want to know.
func setupGo(r *Run, with map[string]string, _ func(func() error)) (map[string]string, error) {
	for _, kv := range r.Job.Env {
		if p, ok := strings.CutPrefix(kv, "PATH="); ok {
			for _, d := range filepath.SplitList(p) {
				if _, err := exec.LookPath(filepath.Join(d, "go")); err == nil {
					return map[string]string{"go-version": "local"}, nil
				}
			}
		}
	}
	return nil, fmt.Errorf("actions/setup-go: the harness has no Go to set up")
}

// cache stands for actions/cache: an entry is a folder of Job.CacheDir
// named by the key's hash, holding a copy of each path. The restore is
// exact (cache-hit=true) or the newest entry whose key starts with a
// restore key; the save, at the end of the job, happens on a miss only,
// as the real action's post step does.
func cache(r *Run, with map[string]string, post func(func() error)) (map[string]string, error) {
	key := strings.TrimSpace(with["key"])
	if key == "" {
		return nil, fmt.Errorf("actions/cache: key is empty")
	}
	if len(key) > 512 || strings.Contains(key, ",") {
		return nil, fmt.Errorf("actions/cache: key %q is not valid (at most 512 characters, no commas)", key)
	}
	var paths []string
	for _, p := range strings.Split(with["path"], "\n") {
		if p = strings.TrimSpace(p); p != "" {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("actions/cache: path is empty")
	}
	store := r.Job.CacheDir
	if store == "" {
		return nil, fmt.Errorf("actions/cache: the job has no CacheDir")
	}
	entry := func(k string) string { return filepath.Join(store, fmt.Sprintf("%x", sha256.Sum256([]byte(k)))) }
	hit, from := false, ""
	if _, err := os.Stat(entry(key)); err == nil {
		hit, from = true, key
	} else {
		for _, rk := range strings.Split(with["restore-keys"], "\n") {
			if rk = strings.TrimSpace(rk); rk == "" || from != "" {
				continue
			}
			keys, _ := filepath.Glob(filepath.Join(store, "*.key"))
			sort.Sort(sort.Reverse(sort.StringSlice(keys)))
			for _, kf := range keys {
				k, _ := os.ReadFile(kf)
				if strings.HasPrefix(string(k), rk) {
					from = string(k)
					break
				}
			}
		}
	}
	if from != "" {
		for i, p := range paths {
			src := filepath.Join(entry(from), fmt.Sprint(i))
			if _, err := os.Stat(src); err != nil {
				continue
			}
			if err := os.MkdirAll(p, 0o755); err != nil {
				return nil, err
			}
			if out, err := exec.Command("cp", "-a", src+"/.", p).CombinedOutput(); err != nil {
				return nil, fmt.Errorf("actions/cache: restoring %s: %v: %s", p, err, out)
			}
		}
		r.Log += fmt.Sprintf("Cache restored from key: %s\n", from)
	} else {
		r.Log += fmt.Sprintf("Cache not found for input keys: %s\n", key)
	}
	if !hit {
		post(func() error {
			dst := entry(key)
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return err
			}
			for i, p := range paths {
				if _, err := os.Stat(p); err != nil {
					continue
				}
				d := filepath.Join(dst, fmt.Sprint(i))
				if err := os.MkdirAll(d, 0o755); err != nil {
					return err
				}
				// hard links where the file system allows: an entry is
				// never written to, and a module cache is large
				if err := exec.Command("cp", "-al", p+"/.", d).Run(); err == nil {
					continue
				}
				if out, err := exec.Command("cp", "-a", p+"/.", d).CombinedOutput(); err != nil {
					return fmt.Errorf("actions/cache: saving %s: %v: %s", p, err, out)
				}
			}
			r.Log += fmt.Sprintf("Cache saved with key: %s\n", key)
			return os.WriteFile(dst+".key", []byte(key), 0o644)
		})
	}
	return map[string]string{"cache-hit": fmt.Sprint(hit), "cache-matched-key": from}, nil
}
